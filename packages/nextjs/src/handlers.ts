/**
 * The route handlers: `export const { GET, POST } = handlers` in
 * `app/api/auth/[...nextauth]/route.ts`. Each request goes to core's `Auth()` as it came (core
 * takes the app's origin from `WEBAUTH_URL` when set, else from the request under `trustHost`).
 */
import { Auth } from "@authlib/core"
import type { NextRequest } from "next/server.js"
import { configFor, type NextAuthConfigInput } from "./config.js"

/** A Next route handler. */
export type AppRouteHandler = (request: NextRequest) => Promise<Response>

/** `GET` and `POST` for the `[...nextauth]` route. */
export interface AuthHandlers {
  GET: AppRouteHandler
  POST: AppRouteHandler
}

/** The handlers of the instance of `input`. */
export function handlersFor(input: NextAuthConfigInput): AuthHandlers {
  const handle: AppRouteHandler = async (request) => Auth(request, await configFor(input, request))
  return { GET: handle, POST: handle }
}
