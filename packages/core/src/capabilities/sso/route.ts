/**
 * The capability's route, `{basePath}/sso/{step}/{connectionId}` (a nested route: the kernel hands
 * `step/id` as the provider id): `POST sso/acs/:id` (SAML ACS), `GET sso/metadata/:id` (SP metadata),
 * `GET sso/callback/:id` (OIDC callback).
 */
import { UnknownAction } from "../../kernel/errors/errors.js"
import type { RouteHandler } from "../../kernel/types/capability.js"
import { acsRoute } from "./acs.js"
import { metadataRoute } from "./metadata.js"
import { oidcCallback } from "./oidc.js"

/** `step/id` split; anything else is an unknown action. */
function stepOf(providerId: string | undefined, steps: readonly string[]): { step: string; id: string } {
  const slash = providerId?.indexOf("/") ?? -1
  const step = slash > 0 ? providerId!.slice(0, slash) : ""
  if (!steps.includes(step)) throw new UnknownAction("Unknown SSO action", { code: "ACTION_UNKNOWN" })
  return { step, id: providerId!.slice(slash + 1) }
}

export const ssoGet: RouteHandler = async (req, ctx) => {
  const { step, id } = stepOf(req.providerId, ["metadata", "callback"])
  return step === "metadata" ? metadataRoute(ctx, id) : oidcCallback(req, ctx, id)
}

export const ssoPost: RouteHandler = async (req, ctx) => acsRoute(req, ctx, stepOf(req.providerId, ["acs"]).id)
