/**
 * What `Auth()` answers, in two steps: the request's answer as `ResponseParts`, then those parts as
 * a `Response`. `@authlib/core/node` takes the first step alone and writes the parts to its socket
 * (`node/send-parts.ts`): a Web `Response` and the read of its body stream cost a node server more
 * than a tenth of a cached session read.
 */
import type { LoggerInstance } from "@authlib/jwt"
import { logError } from "../errors/logger.js"
import type { AuthResponse } from "../types/http.js"
import type { ResolvedConfig } from "../types/resolved-config.js"
import { dispatch } from "./dispatch.js"
import type { RequestSource } from "./incoming.js"
import { CONFIGURATION_ERROR, responseOf, responseParts, wantsRedirectAsJson, type ResponseParts } from "./to-response.js"

/** The answer to `request` (not in `raw` mode); a cookie that cannot be serialised is logged and answered as a configuration error. */
export async function answerParts(request: RequestSource, config: ResolvedConfig, clientAddress?: string): Promise<ResponseParts> {
  return partsOf(request, await dispatch(request, config, clientAddress), config.logger)
}

/** `result`, the dispatched answer to `request`, as parts (the second half of `answerParts`, for a caller that dispatched itself). */
export function partsOf(request: Pick<Request, "headers">, result: AuthResponse, logger: LoggerInstance): ResponseParts {
  try {
    return responseParts(result, wantsRedirectAsJson(request))
  } catch (err) {
    logError(logger, err)
    return CONFIGURATION_ERROR
  }
}

/** The `Response` of `parts`; a header value the platform refuses is logged and answered as a configuration error. */
export function answerResponse(parts: ResponseParts, logger: LoggerInstance): Response {
  try {
    return responseOf(parts)
  } catch (err) {
    logError(logger, err)
    return responseOf(CONFIGURATION_ERROR)
  }
}
