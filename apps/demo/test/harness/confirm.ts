/** The demo's "Are you sure?" (`window.confirm`) before a removal, answered in Chromium. */
import type { Locator, Page } from "playwright-core"

/**
 * Clicks `button`, answers the confirmation it asks (`accept` by default), and resolves the
 * question asked. Fails when no question comes: the removal would have gone through unasked.
 */
export async function clickConfirming(page: Page, button: Locator, answer: "accept" | "dismiss" = "accept"): Promise<string> {
  const asked = page.waitForEvent("dialog", { timeout: 5_000 }).then(async (dialog) => {
    const question = dialog.type() === "confirm" ? dialog.message() : `(a ${dialog.type()} dialog: ${dialog.message()})`
    await (answer === "accept" ? dialog.accept() : dialog.dismiss())
    return question
  })
  await button.click()
  return asked
}
