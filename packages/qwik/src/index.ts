export { applySetCookies, cookieHeader } from "./cookies.js"
