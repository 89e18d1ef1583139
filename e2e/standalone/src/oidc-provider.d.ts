// oidc-provider 9 ships no types: the slice the quick-start test uses.
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http"
  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>)
    callback(): (req: IncomingMessage, res: ServerResponse) => void
  }
}
