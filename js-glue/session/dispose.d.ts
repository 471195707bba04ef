// session-index.js gives SessionIndex `[Symbol.dispose]` where the runtime has Symbol.dispose, which a
// JSDoc class cannot declare without defining it: declared here, merged into the emitted class.
export {};
declare module './session-index.js' {
  interface SessionIndex {
    [Symbol.dispose](): void;
  }
}
