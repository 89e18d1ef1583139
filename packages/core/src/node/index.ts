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
import { appForNode, forNode } from "./functions.js"

// Core's server functions for Node, one `forNode` each by name (a test fails when a name of
// `serverFunctions`, or a server function of the root entry, has no twin here). Each takes the
// Node request in place of the `Request` (those without one take the config first, as at the
// root) and completes the config from `process.env`.

/** {@link root.listPasskeys} for a Node request, the config completed from `process.env`. */
export const listPasskeys = forNode("listPasskeys")
/** {@link root.renamePasskey} for a Node request, the config completed from `process.env`. */
export const renamePasskey = forNode("renamePasskey")
/** {@link root.deletePasskey} for a Node request, the config completed from `process.env`. */
export const deletePasskey = forNode("deletePasskey")
/** {@link root.getAccessToken} for a Node request, the config completed from `process.env`. */
export const getAccessToken = forNode("getAccessToken")
/** {@link root.listSessions} for a Node request, the config completed from `process.env`. */
export const listSessions = forNode("listSessions")
/** {@link root.revokeSession} for a Node request, the config completed from `process.env`. */
export const revokeSession = forNode("revokeSession")
/** {@link root.revokeOtherSessions} for a Node request, the config completed from `process.env`. */
export const revokeOtherSessions = forNode("revokeOtherSessions")
/** {@link root.signOutEverywhere} for a Node request, the config completed from `process.env`. */
export const signOutEverywhere = forNode("signOutEverywhere")
/** {@link root.listLinkedAccounts} for a Node request, the config completed from `process.env`. */
export const listLinkedAccounts = forNode("listLinkedAccounts")
/** {@link root.listSignInMethods} for a Node request, the config completed from `process.env`. */
export const listSignInMethods = forNode("listSignInMethods")
/** {@link root.unlinkLinkedAccount} for a Node request, the config completed from `process.env`. */
export const unlinkLinkedAccount = forNode("unlinkLinkedAccount")
/** {@link root.getTwoFactorStatus} for a Node request, the config completed from `process.env`. */
export const getTwoFactorStatus = forNode("getTwoFactorStatus")
/** {@link root.startTotpEnrollment} for a Node request, the config completed from `process.env`. */
export const startTotpEnrollment = forNode("startTotpEnrollment")
/** {@link root.confirmTotpEnrollment} for a Node request, the config completed from `process.env`. */
export const confirmTotpEnrollment = forNode("confirmTotpEnrollment")
/** {@link root.disableTwoFactorSignIn} for a Node request, the config completed from `process.env`. */
export const disableTwoFactorSignIn = forNode("disableTwoFactorSignIn")
/** {@link root.regenerateTwoFactorBackupCodes} for a Node request, the config completed from `process.env`. */
export const regenerateTwoFactorBackupCodes = forNode("regenerateTwoFactorBackupCodes")
/** {@link root.requireRecentAuthentication} for a Node request, the config completed from `process.env`. */
export const requireRecentAuthentication = forNode("requireRecentAuthentication")
/** {@link root.completeTwoFactorSignIn} for a Node request, the config completed from `process.env`. */
export const completeTwoFactorSignIn = forNode("completeTwoFactorSignIn")
/** {@link root.completeTwoFactorSignInWithPasskey} for a Node request, the config completed from `process.env`. */
export const completeTwoFactorSignInWithPasskey = forNode("completeTwoFactorSignInWithPasskey")
/** {@link root.stepUpTwoFactor} for a Node request, the config completed from `process.env`. */
export const stepUpTwoFactor = forNode("stepUpTwoFactor")
/** {@link root.getPendingTwoFactor} for a Node request, the config completed from `process.env`. */
export const getPendingTwoFactor = forNode("getPendingTwoFactor")
/** {@link root.createOrganization} for a Node request, the config completed from `process.env`. */
export const createOrganization = forNode("createOrganization")
/** {@link root.listOrganizations} for a Node request, the config completed from `process.env`. */
export const listOrganizations = forNode("listOrganizations")
/** {@link root.getOrganization} for a Node request, the config completed from `process.env`. */
export const getOrganization = forNode("getOrganization")
/** {@link root.updateOrganization} for a Node request, the config completed from `process.env`. */
export const updateOrganization = forNode("updateOrganization")
/** {@link root.deleteOrganization} for a Node request, the config completed from `process.env`. */
export const deleteOrganization = forNode("deleteOrganization")
/** {@link root.inviteMember} for a Node request, the config completed from `process.env`. */
export const inviteMember = forNode("inviteMember")
/** {@link root.listInvitations} for a Node request, the config completed from `process.env`. */
export const listInvitations = forNode("listInvitations")
/** {@link root.revokeInvitation} for a Node request, the config completed from `process.env`. */
export const revokeInvitation = forNode("revokeInvitation")
/** {@link root.acceptInvitation} for a Node request, the config completed from `process.env`. */
export const acceptInvitation = forNode("acceptInvitation")
/** {@link root.listMembers} for a Node request, the config completed from `process.env`. */
export const listMembers = forNode("listMembers")
/** {@link root.updateMemberRole} for a Node request, the config completed from `process.env`. */
export const updateMemberRole = forNode("updateMemberRole")
/** {@link root.removeMember} for a Node request, the config completed from `process.env`. */
export const removeMember = forNode("removeMember")
/** {@link root.leaveOrganization} for a Node request, the config completed from `process.env`. */
export const leaveOrganization = forNode("leaveOrganization")
/** {@link root.setActiveOrganization} for a Node request, the config completed from `process.env`. */
export const setActiveOrganization = forNode("setActiveOrganization")
/** {@link root.hasPermission} for a Node request, the config completed from `process.env`. */
export const hasPermission = forNode("hasPermission")
/** {@link root.requirePermission} for a Node request, the config completed from `process.env`. */
export const requirePermission = forNode("requirePermission")
/** {@link root.createSsoConnection} for a Node request, the config completed from `process.env`. */
export const createSsoConnection = forNode("createSsoConnection")
/** {@link root.listSsoConnections} for a Node request, the config completed from `process.env`. */
export const listSsoConnections = forNode("listSsoConnections")
/** {@link root.updateSsoConnection} for a Node request, the config completed from `process.env`. */
export const updateSsoConnection = forNode("updateSsoConnection")
/** {@link root.deleteSsoConnection} for a Node request, the config completed from `process.env`. */
export const deleteSsoConnection = forNode("deleteSsoConnection")
/** {@link root.addSsoDomain} for a Node request, the config completed from `process.env`. */
export const addSsoDomain = forNode("addSsoDomain")
/** {@link root.verifySsoDomain} for a Node request, the config completed from `process.env`. */
export const verifySsoDomain = forNode("verifySsoDomain")
/** {@link root.revokeUserSessions} with the config completed from `process.env`. */
export const revokeUserSessions = appForNode(root.revokeUserSessions)
/** {@link root.unlockTwoFactor} with the config completed from `process.env`. */
export const unlockTwoFactor = appForNode(root.unlockTwoFactor)
