import { describe, it } from "vitest"
import { twoFactorPasskeyJourney } from "./harness/two-factor-passkey-flow.js"
import { useDemo } from "./harness/use-demo.js"

const demo = useDemo({ AUTH_SESSION_STRATEGY: "database" })

describe("a passkey as the second step on the demo (database sessions)", () => {
  it("password, then 'Use a passkey' on the two-factor page: signed in with no code; an unverified passkey is refused there; a passkey sign-in counts as both steps", async () => {
    await twoFactorPasskeyJourney(demo, "database")
  }, 90_000)
})
