/**
 * `@authlib/nextjs/pages`: the Pages Router, for apps that move from NextAuth.js v4 a page at a
 * time. `getServerSession(req, res, config)` in `getServerSideProps` and API routes answers the
 * session as `GET /api/auth/session` would (core's principal, callbacks, sliding refresh; the
 * refreshed cookie is appended to `res`). The App Router's route handler serves `/api/auth/*`
 * for both routers.
 *
 * ```ts
 * import { getServerSession } from "@authlib/nextjs/pages"
 * export const getServerSideProps = async ({ req, res }) => ({ props: { session: await getServerSession(req, res, config) } })
 * ```
 * @module
 */
/// <reference types="node" />
import type { Session } from "@authlib/core"
import { getSession } from "@authlib/core/node"
import type { IncomingMessage, ServerResponse } from "node:http"
import { completeConfig, type NextAuthConfig } from "./config.js"

/** The session of a Pages Router request (`getServerSideProps`'s `req`/`res`, an API route's), or `null`. */
export async function getServerSession(req: IncomingMessage, res: ServerResponse, config: NextAuthConfig): Promise<Session | null> {
  return getSession(req, completeConfig(config), res)
}

export type { NextAuthConfig } from "./config.js"
