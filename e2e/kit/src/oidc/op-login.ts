/**
 * Walks oidc-provider's dev login and consent interactions from an authorization URL until the
 * provider sends the browser back to the app: a redirect to the app's callback (query response)
 * or an auto-submitting form (`form_post`).
 */
import { readForm, type Browser } from "./browser.js"

export type ProviderAnswer =
  | { kind: "redirect"; url: string }
  | { kind: "form_post"; action: string; fields: Record<string, string>; /** The OP's origin, sent as Origin. */ from: string }

const toApp = (browser: Browser) => (url: string) => browser.isApp(url)

/** Logs `login` in at the OP (consenting when asked) and returns how the OP answers the app. */
export async function loginAtOP(browser: Browser, authorizationUrl: string, login: string): Promise<ProviderAnswer> {
  let step = await browser.follow(authorizationUrl, toApp(browser))
  for (let round = 0; round < 4; round++) {
    if (toApp(browser)(step.url)) return { kind: "redirect", url: step.url }
    if (/name="prompt" value="login"/.test(step.body) || /name="login"/.test(step.body)) {
      const { action } = readForm(step.body, step.url)
      step = await browser.form(action, { prompt: "login", login, password: "any" })
    } else if (/name="prompt" value="consent"/.test(step.body)) {
      const { action } = readForm(step.body, step.url)
      step = await browser.form(action, { prompt: "consent" })
    } else if (/<form[^>]*method="post"/i.test(step.body)) {
      const { action, fields } = readForm(step.body, step.url)
      return { kind: "form_post", action, fields, from: new URL(step.url).origin }
    } else {
      throw new Error(`unexpected OP page at ${step.url} (${step.response.status}): ${step.body.slice(0, 300)}`)
    }
    const next = step.response.headers.get("location")
    if (next) step = await browser.follow(new URL(next, step.url).href, toApp(browser))
  }
  throw new Error("the OP did not send the browser back to the app")
}

/** Opens the OP's login page and clicks "[ Cancel ]"; returns where the OP sends the browser. */
export async function cancelAtOP(browser: Browser, authorizationUrl: string): Promise<string> {
  const page = await browser.follow(authorizationUrl, toApp(browser))
  const href = /<a href="([^"]*)">\[ Cancel \]<\/a>/.exec(page.body)?.[1]
  if (!href) throw new Error(`no cancel link on the OP page: ${page.body.slice(0, 300)}`)
  const back = await browser.follow(new URL(href.replaceAll("&amp;", "&"), page.url).href, toApp(browser))
  if (!toApp(browser)(back.url)) throw new Error(`the OP did not send the browser back: ${back.url}`)
  return back.url
}
