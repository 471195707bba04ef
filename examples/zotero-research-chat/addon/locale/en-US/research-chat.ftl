research-chat-header =
    .label = Research chat
research-chat-sidebar =
    .tooltiptext = Research chat
