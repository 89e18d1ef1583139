// oidc-provider 9 ships no types: the slice the demo IdP uses.
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http"

  interface Account {
    accountId: string
    claims(): Record<string, unknown> | Promise<Record<string, unknown>>
  }

  interface Grant {
    addOIDCScope(scope: string): void
    addOIDCClaims(claims: string[]): void
    addResourceScope(indicator: string, scope: string): void
    save(): Promise<string>
  }

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>)
    callback(): (req: IncomingMessage, res: ServerResponse) => void
    on(event: string, listener: (...args: unknown[]) => void): this
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<unknown>
    interactionFinished(req: IncomingMessage, res: ServerResponse, result: Record<string, unknown>, options?: { mergeWithLastSubmission?: boolean }): Promise<void>
    Grant: { new (init: { accountId: string; clientId?: string }): Grant; find(id: string): Promise<Grant> }
    proxy: boolean
  }
  /** A stored model (session, grant, code, token): the fields the demo's store looks at. */
  interface AdapterPayload {
    [key: string]: unknown
    userCode?: string
    uid?: string
    grantId?: string
    consumed?: number
  }

  /** The storage interface oidc-provider calls, one instance per model name. */
  interface Adapter {
    upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void>
    find(id: string): Promise<AdapterPayload | undefined>
    findByUserCode(userCode: string): Promise<AdapterPayload | undefined>
    findByUid(uid: string): Promise<AdapterPayload | undefined>
    consume(id: string): Promise<void>
    destroy(id: string): Promise<void>
    revokeByGrantId(grantId: string): Promise<void>
  }
  export type { Account, Adapter, AdapterPayload }
}
