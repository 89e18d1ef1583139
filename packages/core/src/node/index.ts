/// <reference types="node" />
/**
 * `@authlib/core/node`: authlib on `node:http`, Express 5 and Connect-style servers. The only
 * part of core that uses Node APIs; the handler itself stays the Web-standard `Auth()`.
 *
 * ```ts
 * import { createServer } from "node:http"
 * import { toNodeHandler, getSession } from "@authlib/core/node"
 * const auth = toNodeHandler(config)
 * createServer((req, res) => auth(req, res, () => app(req, res))).listen(3000)
 * // Express 5: app.use("/auth", toNodeHandler(config)) (before any body parser, or after: both work)
 * ```
 * @module
 */
export { toNodeHandler, type NodeHandler, type NodeHandlerOptions } from "./handler.js"
export { getSession } from "./session.js"
export { toWebRequest, sendWebResponse } from "./convert.js"
export type { NodeServerFunction } from "./functions.js"
import * as root from "../index.js"
import { forNode } from "./functions.js"

// The root's server functions for Node, one `forNode` each (a test fails when a server function of
// the root entry has no twin here). Each takes the Node request in place of the `Request` (those
// without one take the config first, as at the root) and completes the config from `process.env`.

/** {@link root.listPasskeys} for a Node request, the config completed from `process.env`. */
export const listPasskeys = forNode(root.listPasskeys, "request")
/** {@link root.renamePasskey} for a Node request, the config completed from `process.env`. */
export const renamePasskey = forNode(root.renamePasskey, "request")
/** {@link root.deletePasskey} for a Node request, the config completed from `process.env`. */
export const deletePasskey = forNode(root.deletePasskey, "request")
/** {@link root.getAccessToken} for a Node request, the config completed from `process.env`. */
export const getAccessToken = forNode(root.getAccessToken, "request")
/** {@link root.listSessions} for a Node request, the config completed from `process.env`. */
export const listSessions = forNode(root.listSessions, "request")
/** {@link root.revokeSession} for a Node request, the config completed from `process.env`. */
export const revokeSession = forNode(root.revokeSession, "request")
/** {@link root.revokeOtherSessions} for a Node request, the config completed from `process.env`. */
export const revokeOtherSessions = forNode(root.revokeOtherSessions, "request")
/** {@link root.signOutEverywhere} for a Node request, the config completed from `process.env`. */
export const signOutEverywhere = forNode(root.signOutEverywhere, "request")
/** {@link root.listLinkedAccounts} for a Node request, the config completed from `process.env`. */
export const listLinkedAccounts = forNode(root.listLinkedAccounts, "request")
/** {@link root.listSignInMethods} for a Node request, the config completed from `process.env`. */
export const listSignInMethods = forNode(root.listSignInMethods, "request")
/** {@link root.unlinkLinkedAccount} for a Node request, the config completed from `process.env`. */
export const unlinkLinkedAccount = forNode(root.unlinkLinkedAccount, "request")
/** {@link root.getTwoFactorStatus} for a Node request, the config completed from `process.env`. */
export const getTwoFactorStatus = forNode(root.getTwoFactorStatus, "request")
/** {@link root.startTotpEnrollment} for a Node request, the config completed from `process.env`. */
export const startTotpEnrollment = forNode(root.startTotpEnrollment, "request")
/** {@link root.confirmTotpEnrollment} for a Node request, the config completed from `process.env`. */
export const confirmTotpEnrollment = forNode(root.confirmTotpEnrollment, "request")
/** {@link root.disableTwoFactorSignIn} for a Node request, the config completed from `process.env`. */
export const disableTwoFactorSignIn = forNode(root.disableTwoFactorSignIn, "request")
/** {@link root.regenerateTwoFactorBackupCodes} for a Node request, the config completed from `process.env`. */
export const regenerateTwoFactorBackupCodes = forNode(root.regenerateTwoFactorBackupCodes, "request")
/** {@link root.requireRecentAuthentication} for a Node request, the config completed from `process.env`. */
export const requireRecentAuthentication = forNode(root.requireRecentAuthentication, "request")
/** {@link root.completeTwoFactorSignIn} for a Node request, the config completed from `process.env`. */
export const completeTwoFactorSignIn = forNode(root.completeTwoFactorSignIn, "request")
/** {@link root.completeTwoFactorSignInWithPasskey} for a Node request, the config completed from `process.env`. */
export const completeTwoFactorSignInWithPasskey = forNode(root.completeTwoFactorSignInWithPasskey, "request")
/** {@link root.stepUpTwoFactor} for a Node request, the config completed from `process.env`. */
export const stepUpTwoFactor = forNode(root.stepUpTwoFactor, "request")
/** {@link root.getPendingTwoFactor} for a Node request, the config completed from `process.env`. */
export const getPendingTwoFactor = forNode(root.getPendingTwoFactor, "request")
/** {@link root.revokeUserSessions} with the config completed from `process.env`. */
export const revokeUserSessions = forNode(root.revokeUserSessions, "app")
/** {@link root.unlockTwoFactor} with the config completed from `process.env`. */
export const unlockTwoFactor = forNode(root.unlockTwoFactor, "app")
