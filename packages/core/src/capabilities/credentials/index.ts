/**
 * Credentials sign-in: the flow of `credentials` providers (`authorize` decides), its start-up
 * check, and its throttling (per identifier and client network, device marks: `limit.ts`).
 */
import { MissingAuthorize } from "../../kernel/errors/errors.js"
import type { Capability } from "../../kernel/types/capability.js"
import { credentialsFlow } from "./flow.js"

export const credentials: Capability = {
  name: "credentials",
  flows: {
    credentials: {
      flow: credentialsFlow,
      check: (p) =>
        typeof (p as { authorize?: unknown }).authorize === "function"
          ? undefined
          : new MissingAuthorize(`Credentials provider "${p.id}" has no "authorize" function`, { code: "AUTHORIZE_MISSING", cause: { provider: p.id } }),
    },
  },
}
