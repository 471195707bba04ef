export default class Section {}
