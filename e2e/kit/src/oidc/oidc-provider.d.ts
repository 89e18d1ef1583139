// oidc-provider ships no type declarations; the tests use a small, loosely typed part of it.
declare module "oidc-provider" {
  const Provider: new (issuer: string, configuration: Record<string, unknown>) => {
    callback(): (req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => void
    on(event: string, listener: (...args: any[]) => void): void
    proxy: boolean
    interactionFinished(req: unknown, res: unknown, result: Record<string, any>, options?: Record<string, unknown>): Promise<void>
  }
  export default Provider
}
