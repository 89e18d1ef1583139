import { describe, it } from "vitest"
import { ssoJourney, ssoWithoutJavaScript } from "./harness/sso-flow.js"
import { useDemo } from "./harness/use-demo.js"

const demo = useDemo()

describe("enterprise SSO on the demo (JWT sessions)", () => {
  it("an unknown domain is refused; ada@acme.test and grace@acme.test sign in at the Demo SAML IdP and land in Acme Corp, active", async () => {
    await ssoJourney(demo, "jwt")
  }, 90_000)

  it("the SSO form works with JavaScript off: refused for an unknown domain, on to the IdP for ada@acme.test", async () => {
    await ssoWithoutJavaScript(demo)
  }, 60_000)
})
