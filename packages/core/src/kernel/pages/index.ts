/**
 * The built-in pages: complete HTML documents rendered on the server, with every interpolated
 * value escaped and the theme's values validated before they reach CSS or a URL attribute.
 */
export { escapeHtml } from "./html.js"
export { ANY_FORM_TARGET, formTargets, pageHeaders, type FormTargets } from "./headers.js"
export { buttonOf, buttonPart, renderSignInPage, signInButton, signInFormTargets, type ButtonProvider, type SignInPageParams, type SignInPageProvider } from "./signin.js"
export { renderSignOutPage, type SignOutPageParams } from "./signout.js"
export { renderErrorPage, type ErrorPageParams } from "./error.js"
export { renderVerifyRequestPage, type VerifyRequestPageParams } from "./verify-request.js"
export { renderEmailConfirmPage, type EmailConfirmPageParams } from "./email-confirm.js"
