/**
 * The organization page's journey in two browsers (database sessions): Ada creates two
 * organizations and invites Grace to both through the demo inbox; Grace, signed in with that
 * verified address by an e-mail link in a second Chromium, accepts both links, switches her active
 * organization (shown from the session), is promoted by Ada, leaves one organization, and is removed
 * from the other, after which her open page is refused on its next request.
 */
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launchBrowser, screenshot, type DemoBrowser } from "./harness/browser.js"
import { clickConfirming } from "./harness/confirm.js"
import { useDemo } from "./harness/use-demo.js"

const demo = useDemo({ AUTH_SESSION_STRATEGY: "database" })

/** Grace's browser: a second Chromium with its own profile, so its own cookies. */
let second: DemoBrowser | undefined
beforeAll(async () => {
  second = await launchBrowser()
})
afterAll(async () => {
  await second?.close()
})

const organization = (page: Page, name: string) => page.getByRole("article", { name })
const activeLine = (page: Page) => page.getByLabel("Active organization")
const status = (page: Page) => page.getByRole("status")

/** `GET /auth/session` in this page's browser, as the app's client code would read it. */
async function sessionJson(page: Page): Promise<{ activeOrganization?: { id: string; slug: string; role: string } | null }> {
  const res = await page.request.get(`${demo.server.origin}/auth/session`)
  expect(res.status()).toBe(200)
  return res.json()
}

/** The link of the newest inbox message whose subject matches. */
async function inboxLink(page: Page, subject: RegExp): Promise<string> {
  await page.goto(`${demo.server.origin}/inbox/`)
  const mail = page.getByRole("article", { name: subject }).first()
  await mail.waitFor()
  const href = await mail.getByRole("link", { name: "Open the link in this message" }).getAttribute("href")
  expect(href).toBeTruthy()
  return href!
}

async function createOrganization(page: Page, name: string, slug: string): Promise<void> {
  await page.getByLabel("Organization name").fill(name)
  await page.getByLabel("Short name (optional)").fill(slug)
  await page.getByRole("button", { name: "Create" }).click()
  await organization(page, name).waitFor()
  expect(await organization(page, name).getByText(`${slug} · you are owner`).count()).toBe(1)
}

async function invite(page: Page, to: string, email: string, role: string): Promise<void> {
  const card = organization(page, to)
  await card.getByLabel("E-mail to invite").fill(email)
  await card.getByLabel("Invited role").selectOption(role)
  await card.getByRole("button", { name: "Send the invitation" }).click()
  await status(page).filter({ hasText: `Invited ${email} as ${role}` }).waitFor()
  await card.getByRole("list", { name: `Pending invitations to ${to}` }).getByText(email).waitFor()
}

describe("organizations (database sessions, two browsers)", () => {
  it("create, invite through the inbox, accept in a second browser, switch, change roles, leave, and a removed member is refused", async () => {
    const origin = demo.server.origin
    const ada = await demo.browser.newPage()
    const errors: string[] = []
    ada.on("pageerror", (err) => errors.push(err.message))

    // Ada signs in with the password and lands on the organization page.
    await ada.goto(`${origin}/sign-in/?callbackUrl=%2Forganizations%2F`)
    await ada.getByLabel("Email", { exact: true }).fill("ada@example.com")
    await ada.getByLabel("Password", { exact: true }).fill("correct-horse-battery")
    await ada.getByRole("button", { name: "Sign in with email and password" }).click()
    await ada.waitForURL(`${origin}/organizations/`)
    await ada.getByText("You are in no organization yet.").waitFor()
    expect(await activeLine(ada).textContent()).toBe("No active organization.")

    await createOrganization(ada, "Acme Labs", "acme")
    await createOrganization(ada, "Beta Works", "beta")
    // A slug is one organization's only: core refuses, the page says so.
    await ada.getByLabel("Organization name").fill("Acme again")
    await ada.getByLabel("Short name (optional)").fill("acme")
    await ada.getByRole("button", { name: "Create" }).click()
    await ada.getByRole("alert").filter({ hasText: "That short name is taken" }).waitFor()

    // Ada switches her active organization: the line comes from the session, as GET /auth/session says.
    await organization(ada, "Beta Works").getByRole("button", { name: "Make active" }).click()
    await activeLine(ada).filter({ hasText: "Active organization: beta (you are owner)" }).waitFor()
    expect((await sessionJson(ada)).activeOrganization).toMatchObject({ slug: "beta", role: "owner" })
    await organization(ada, "Acme Labs").getByRole("button", { name: "Make active" }).click()
    await activeLine(ada).filter({ hasText: "Active organization: acme (you are owner)" }).waitFor()

    await invite(ada, "Acme Labs", "grace@example.com", "member")
    await invite(ada, "Beta Works", "grace@example.com", "member")
    await screenshot(ada, "organizations-owner")

    // Grace, in a second browser, signs in with an e-mail link to the invited address (verified so).
    const grace = await second!.newPage()
    grace.on("pageerror", (err) => errors.push(err.message))
    await grace.goto(`${origin}/sign-in/`)
    await grace.getByLabel("Email for a sign-in link").fill("grace@example.com")
    await grace.getByRole("button", { name: "Email me a sign-in link" }).click()
    await grace.waitForURL((url) => url.pathname === "/auth/verify-request")
    await grace.goto(await inboxLink(grace, /^Sign in/))
    await grace.getByRole("button", { name: "Sign in" }).click()
    await grace.waitForURL((url) => !url.pathname.startsWith("/auth/"))

    // Both invitations arrived in the inbox; each link, opened signed in, accepts and lands on the page.
    await grace.goto(`${origin}/inbox/`)
    const invitations = grace.getByRole("article", { name: /^Join / })
    expect(await invitations.count()).toBe(2)
    expect(await grace.getByRole("article", { name: "Join Acme Labs on authlib demo" }).textContent()).toContain("Ada Lovelace invited you to join Acme Labs as member.")
    await screenshot(grace, "organizations-invitation-mail")
    for (const name of ["Acme Labs", "Beta Works"]) {
      await grace.goto(await inboxLink(grace, new RegExp(`^Join ${name}`)))
      await grace.waitForURL(`${origin}/organizations/`)
      await organization(grace, name).waitFor()
    }
    expect(await organization(grace, "Acme Labs").getByText("acme · you are member").count()).toBe(1)
    // A member may not invite, change roles or remove: the page offers none of it.
    expect(await organization(grace, "Acme Labs").getByLabel("E-mail to invite").count()).toBe(0)
    expect(await organization(grace, "Acme Labs").getByRole("button", { name: /Remove|Change the role/ }).count()).toBe(0)
    // A link works once: opened again, core refuses it on the error page (the demo's is its sign-in page), with the code.
    await grace.goto(await inboxLink(grace, /^Join Acme Labs/))
    await grace.waitForURL(`${origin}/sign-in/?error=OrganizationError&code=INVITATION_INVALID`)
    await grace.getByText("That invitation cannot be used").waitFor()

    // Grace's own active organization, from her session.
    await grace.goto(`${origin}/organizations/`)
    expect(await activeLine(grace).textContent()).toBe("No active organization.")
    await organization(grace, "Acme Labs").getByRole("button", { name: "Make active" }).click()
    await activeLine(grace).filter({ hasText: "Active organization: acme (you are member)" }).waitFor()

    // Ada sees her, and promotes her to admin; Grace's next request reads the new role from the store.
    await ada.reload()
    const members = organization(ada, "Acme Labs").getByRole("list", { name: "Members of Acme Labs" })
    await members.getByText("grace@example.com, member").waitFor()
    await organization(ada, "Acme Labs").getByRole("combobox", { name: "Role of grace@example.com" }).selectOption("admin")
    await organization(ada, "Acme Labs").getByRole("button", { name: "Change the role of grace@example.com" }).click()
    await status(ada).filter({ hasText: "Role changed to admin." }).waitFor()
    await members.getByText("grace@example.com, admin").waitFor()
    // Nobody changes their own role or removes themselves here (leaving is "Leave").
    expect(await members.getByRole("button", { name: /ada@example\.com/ }).count()).toBe(0)
    await grace.reload()
    await activeLine(grace).filter({ hasText: "Active organization: acme (you are admin)" }).waitFor()
    expect(await organization(grace, "Acme Labs").getByLabel("E-mail to invite").count()).toBe(1)
    // An admin cannot make an owner (core refuses the escalation), nor touch the owner.
    await organization(grace, "Acme Labs").getByLabel("Invited role").selectOption("owner")
    await organization(grace, "Acme Labs").getByLabel("E-mail to invite").fill("alan.turing@idp.demo")
    await organization(grace, "Acme Labs").getByRole("button", { name: "Send the invitation" }).click()
    await grace.getByRole("alert").filter({ hasText: "You cannot give a role that holds permissions your own role lacks." }).waitFor()
    // Only owners remove owners: the button is there, core refuses it.
    await clickConfirming(grace, organization(grace, "Acme Labs").getByRole("button", { name: "Remove ada@example.com" }))
    await grace.getByRole("alert").filter({ hasText: "Your role in this organization does not allow that." }).waitFor()
    await screenshot(grace, "organizations-admin")

    // Grace leaves Beta Works.
    expect(await clickConfirming(grace, organization(grace, "Beta Works").getByRole("button", { name: "Leave" }))).toBe("Leave Beta Works?")
    await status(grace).filter({ hasText: "You left the organization." }).waitFor()
    expect(await organization(grace, "Beta Works").count()).toBe(0)

    // Ada removes Grace from Acme Labs while Grace's page is open.
    await ada.reload()
    await clickConfirming(ada, organization(ada, "Acme Labs").getByRole("button", { name: "Remove grace@example.com" }))
    await status(ada).filter({ hasText: "Member removed." }).waitFor()
    await members.getByText("grace@example.com").waitFor({ state: "detached" })

    // Grace's next request is refused: her open page's invitation (she was an admin) names an
    // organization she is no longer in, and her session's active organization is gone.
    await organization(grace, "Acme Labs").getByLabel("E-mail to invite").fill("someone@example.com")
    await organization(grace, "Acme Labs").getByLabel("Invited role").selectOption("member")
    await organization(grace, "Acme Labs").getByRole("button", { name: "Send the invitation" }).click()
    await grace.getByRole("alert").filter({ hasText: "There is no such organization, or you are not a member of it." }).waitFor()
    expect((await sessionJson(grace)).activeOrganization).toBeNull()
    await grace.reload()
    await grace.getByText("You are in no organization yet.").waitFor()
    expect(await activeLine(grace).textContent()).toBe("No active organization.")
    // Ada's list has no invitation to someone@example.com: nothing was stored for the refused call.
    await ada.reload()
    expect(await organization(ada, "Acme Labs").getByText("someone@example.com").count()).toBe(0)
    await screenshot(grace, "organizations-removed")

    expect(errors).toEqual([])
    await ada.close()
    await grace.close()
  })
})
