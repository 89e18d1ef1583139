import { component$ } from "@builder.io/qwik"
import { Form, routeAction$, routeLoader$, z, zod$, type DocumentHead, type RequestEventAction, type RequestHandler } from "@builder.io/qwik-city"
import {
  createOrganization,
  hasPermission,
  inviteMember,
  leaveOrganization,
  listInvitations,
  listMembers,
  listOrganizations,
  protectRoute,
  removeMember,
  revokeInvitation,
  setActiveOrganization,
  updateMemberRole,
} from "@authlib/qwik"
import { useSession } from "../plugin@auth"
import { confirmFirst } from "../../components/confirm"
import { refusal } from "../../components/organization-refusal"
import { ENDED_SIGN_IN_PAGE, sessionEnded } from "../../server/session-ended"

/** The built-in roles, most powerful first (core decides who may grant which). */
const ROLES = ["owner", "admin", "member"] as const

const protect = protectRoute({ signInPage: "/sign-in/" })
const protectEnded = protectRoute({ signInPage: ENDED_SIGN_IN_PAGE })
export const onRequest: RequestHandler = (ev) => (sessionEnded(ev) ? protectEnded(ev) : protect(ev))

const day = (date: Date) => date.toISOString().slice(0, 10)

/**
 * The user's organizations, each with its members, and what the user's role there allows
 * (`hasPermission`, read from the store on this request): pending invitations only for those who
 * may invite.
 */
export const useOrganizations = routeLoader$(async (ev) => {
  const organizations = await listOrganizations(ev)
  return Promise.all(
    organizations.map(async (o) => {
      const [members, canInvite, canChangeRoles, canRemove, canRevoke] = await Promise.all([
        listMembers(ev, o.id),
        hasPermission(ev, o.id, "member:invite"),
        hasPermission(ev, o.id, "member:update-role"),
        hasPermission(ev, o.id, "member:remove"),
        hasPermission(ev, o.id, "invitation:revoke"),
      ])
      const invitations = canInvite ? (await listInvitations(ev, o.id)).filter((i) => i.status === "pending") : []
      return {
        id: o.id,
        name: o.name,
        slug: o.slug,
        role: o.role,
        createdAt: day(o.createdAt),
        can: { invite: canInvite, changeRoles: canChangeRoles, remove: canRemove, revoke: canRevoke },
        members: members.map((m) => ({ userId: m.userId, name: m.name, email: m.email, role: m.role, joinedAt: day(m.joinedAt) })),
        invitations: invitations.map((i) => ({ id: i.id, email: i.email, role: i.role, expires: day(i.expires) })),
      }
    }),
  )
})

/**
 * Runs a core call; a refusal becomes the action's failure, with the sentence the page shows.
 * `at` orders the answers: every action keeps its last one, and the page shows the newest.
 */
async function attempt(ev: RequestEventAction, run: () => Promise<unknown>, done: string) {
  try {
    await run()
    return { message: done, at: Date.now() }
  } catch (err) {
    const refused = refusal(err)
    if (refused) return ev.fail(refused.status, { message: refused.message, at: Date.now() })
    throw err
  }
}

export const useCreateOrganization = routeAction$(
  (form, ev) =>
    attempt(ev, () => createOrganization(ev, { name: form.name, ...(form.slug ? { slug: form.slug } : {}) }), `Created ${form.name}: you are its owner.`),
  zod$({ name: z.string(), slug: z.string().optional() }),
)

export const useInvite = routeAction$(
  (form, ev) => attempt(ev, () => inviteMember(ev, form.organizationId, { email: form.email, role: form.role }), `Invited ${form.email} as ${form.role}: the invitation is in the Inbox.`),
  zod$({ organizationId: z.string(), email: z.string(), role: z.string() }),
)

export const useRevokeInvitation = routeAction$(
  (form, ev) => attempt(ev, () => revokeInvitation(ev, form.invitationId), "Invitation revoked: its link no longer works."),
  zod$({ invitationId: z.string() }),
)

export const useChangeRole = routeAction$(
  (form, ev) => attempt(ev, () => updateMemberRole(ev, form.organizationId, form.userId, form.role), `Role changed to ${form.role}.`),
  zod$({ organizationId: z.string(), userId: z.string(), role: z.string() }),
)

export const useRemoveMember = routeAction$(
  (form, ev) => attempt(ev, () => removeMember(ev, form.organizationId, form.userId), "Member removed."),
  zod$({ organizationId: z.string(), userId: z.string() }),
)

export const useLeave = routeAction$(
  (form, ev) => attempt(ev, () => leaveOrganization(ev, form.organizationId), "You left the organization."),
  zod$({ organizationId: z.string() }),
)

/**
 * Switches the active organization (empty: none). Core sets its cookie; the page is then loaded
 * again, so the session it shows is read with the new cookie.
 */
export const useSetActive = routeAction$(
  async (form, ev) => {
    const answer = await attempt(ev, () => setActiveOrganization(ev, form.organizationId || null), "")
    if ("failed" in answer) return answer
    throw ev.redirect(303, "/organizations/")
  },
  zod$({ organizationId: z.string() }),
)

type Answer = { message: string; at: number; failed?: boolean } | undefined

/**
 * The newest of the actions' answers, read in the page's own render so that each is tracked, and
 * copied: JSX bound to one action's store would keep showing that action's text once another is newer.
 */
function newest(answers: Answer[]): { message: string; failed: boolean } | undefined {
  let last: Answer
  for (const answer of answers) if (answer?.message && (!last || answer.at > last.at)) last = answer
  return last ? { message: last.message, failed: last.failed === true } : undefined
}

export default component$(() => {
  const session = useSession()
  const organizations = useOrganizations()
  const create = useCreateOrganization()
  const invite = useInvite()
  const revoke = useRevokeInvitation()
  const changeRole = useChangeRole()
  const remove = useRemoveMember()
  const leave = useLeave()
  const setActive = useSetActive()
  // The session's user carries no id; the user's own row is found by its address.
  const myEmail = session.value?.user?.email?.toLowerCase()
  const isMe = (email: string | null) => myEmail !== undefined && email?.toLowerCase() === myEmail
  const active = session.value?.activeOrganization ?? null
  const outcome = newest([create, invite, revoke, changeRole, remove, leave, setActive].map((a) => a.value as Answer))
  return (
    <section aria-labelledby="organizations-title">
      <h1 id="organizations-title">Organizations</h1>
      <p class="lead">Create an organization, invite people by e-mail, give them roles, and choose which one you work in.</p>
      <p class="notice" aria-label="Active organization">
        {active ? (
          <>
            Active organization: <strong>{active.slug}</strong> (you are {active.role})
          </>
        ) : (
          "No active organization."
        )}
      </p>
      {outcome?.failed && (
        <p class="alert" role="alert">
          {outcome.message}
        </p>
      )}
      {outcome && !outcome.failed && (
        <p class="notice" role="status">
          {outcome.message}
        </p>
      )}

      {organizations.value.length === 0 && <p class="hint">You are in no organization yet.</p>}
      <ul class="session-list">
        {organizations.value.map((o) => (
          <li key={o.id} class="card organization">
            <article aria-label={o.name}>
              <h2>{o.name}</h2>
              <p class="hint">
                {o.slug} · you are {o.role} · since {o.createdAt}
              </p>
              <div class="row">
                {active?.id === o.id ? (
                  <Form action={setActive}>
                    <input type="hidden" name="organizationId" value="" />
                    <button type="submit" class="button small">
                      Clear active
                    </button>
                  </Form>
                ) : (
                  <Form action={setActive}>
                    <input type="hidden" name="organizationId" value={o.id} />
                    <button type="submit" class="button small">
                      Make active
                    </button>
                  </Form>
                )}
                <Form action={leave}>
                  <input type="hidden" name="organizationId" value={o.id} />
                  <button type="submit" class="button small" data-confirm={`Leave ${o.name}?`} onClick$={confirmFirst}>
                    Leave
                  </button>
                </Form>
              </div>

              <h3>Members</h3>
              <ul class="session-list" aria-label={`Members of ${o.name}`}>
                {o.members.map((m) => (
                  <li key={m.userId} class="session member">
                    <span>
                      {m.name ?? m.email} <span class="hint">({m.email}, {m.role}{isMe(m.email) ? ", you" : ""})</span>
                    </span>
                    <span class="row">
                      {o.can.changeRoles && !isMe(m.email) && (
                        <Form action={changeRole} class="row">
                          <input type="hidden" name="organizationId" value={o.id} />
                          <input type="hidden" name="userId" value={m.userId} />
                          <select name="role" aria-label={`Role of ${m.email}`}>
                            {ROLES.map((r) => (
                              <option key={r} value={r} selected={r === m.role}>
                                {r}
                              </option>
                            ))}
                          </select>
                          <button type="submit" class="button small" aria-label={`Change the role of ${m.email}`}>
                            Change role
                          </button>
                        </Form>
                      )}
                      {o.can.remove && !isMe(m.email) && (
                        <Form action={remove}>
                          <input type="hidden" name="organizationId" value={o.id} />
                          <input type="hidden" name="userId" value={m.userId} />
                          <button type="submit" class="button small" aria-label={`Remove ${m.email}`} data-confirm={`Remove ${m.email} from ${o.name}?`} onClick$={confirmFirst}>
                            Remove
                          </button>
                        </Form>
                      )}
                    </span>
                  </li>
                ))}
              </ul>

              {o.can.invite && (
                <>
                  <h3>Invite someone</h3>
                  <Form action={invite} class="row">
                    <input type="hidden" name="organizationId" value={o.id} />
                    <label>
                      E-mail to invite <input type="email" name="email" required autoComplete="off" />
                    </label>
                    <label>
                      Invited role
                      <select name="role">
                        {ROLES.map((r) => (
                          <option key={r} value={r} selected={r === "member"}>
                            {r}
                          </option>
                        ))}
                      </select>
                    </label>
                    <button type="submit" class="button small primary">
                      Send the invitation
                    </button>
                  </Form>
                  {o.invitations.length > 0 && (
                    <ul class="session-list" aria-label={`Pending invitations to ${o.name}`}>
                      {o.invitations.map((i) => (
                        <li key={i.id} class="session">
                          <span>
                            {i.email} <span class="hint">(as {i.role}, until {i.expires})</span>
                          </span>
                          {o.can.revoke && (
                            <Form action={revoke}>
                              <input type="hidden" name="invitationId" value={i.id} />
                              <button type="submit" class="button small" aria-label={`Revoke the invitation of ${i.email}`}>
                                Revoke
                              </button>
                            </Form>
                          )}
                        </li>
                      ))}
                    </ul>
                  )}
                </>
              )}
            </article>
          </li>
        ))}
      </ul>

      <h2>New organization</h2>
      <Form action={create} class="row">
        <label>
          Organization name <input name="name" required maxLength={100} />
        </label>
        <label>
          Short name (optional) <input name="slug" pattern="[a-z0-9]+(-[a-z0-9]+)*" />
        </label>
        <button type="submit" class="button primary small">
          Create
        </button>
      </Form>
    </section>
  )
})

export const head: DocumentHead = { title: "Organizations" }
