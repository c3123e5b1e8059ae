// Array.isArray narrows `unknown` to `unknown[]`, not `any[]`: trace data stays unknown until it is checked.
interface ArrayConstructor {
  isArray(arg: unknown): arg is unknown[];
}
