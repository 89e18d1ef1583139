import { describe, it } from "vitest"
import { twoFactorJourney } from "./harness/two-factor-flow.js"
import { useDemo } from "./harness/use-demo.js"

const demo = useDemo({ AUTH_SESSION_STRATEGY: "database" })

describe("two-step verification on the demo (database sessions)", () => {
  it("turns it on from the account page; password, e-mail link and Demo IdP sign-ins stop for a code or a backup code; new backup codes; off", async () => {
    await twoFactorJourney(demo, "database")
  }, 120_000)
})
