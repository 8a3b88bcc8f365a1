import { randomUUID } from 'node:crypto'
import { beforeAll, expect, test, vi } from 'vitest'
import { DEMO_DARES, DEMO_SESSIONS, DEMO_USERS } from '#app/db/seed.server'
import { tr } from '#tests/e2e/support/i18n'
import { signIn } from '#tests/support/app-server'
import { describeEachServer, Visitor, type Page, type TestServer } from './support'

/**
 * Moderation on the session page (docs/product.md §13), as a browser without
 * JavaScript meets it, and a new dare as the page's script sends it: Emre's
 * live demo session, where Emre holds new dares for review, approves one and
 * rejects another, hides one and bans a viewer; Lucia and Jonas write and
 * boost, everyone reports. Other request-level tests read Mia's session and
 * the home page, which this leaves as they are.
 */
const session = DEMO_SESSIONS.emreLive
const path = `/en/session/${session.id}`
const jonasDare = DEMO_DARES.find((d) => d.session === 'emreLive' && d.author === 'jonas')!

/** A demo account signed in through the sign-in form, its cookies in a visitor's jar; the current terms accepted when asked for. */
async function member(server: TestServer, email: string, { terms = false } = {}): Promise<Visitor> {
	const visitor = Visitor.decided(server)
	for (const pair of (await signIn(server.url, email)).split('; ')) {
		const at = pair.indexOf('=')
		visitor.cookies.set(pair.slice(0, at), pair.slice(at + 1))
	}
	if (terms) {
		const page = await visitor.page(path)
		const form = page.document.querySelector('form[data-terms]')
		if (form) await visitor.submit(page, form, {}, form.querySelector('button[value="accept"]')!)
	}
	return visitor
}

/** The toast a page came back with (the flash rendered without JavaScript). */
function toastOf(page: Page): { type: string; text: string } | null {
	const flash = page.document.querySelector('.flash')
	if (!flash) return null
	return { type: flash.className.replace(/.*flash--(\w+).*/, '$1'), text: flash.querySelector('strong')?.textContent ?? '' }
}

/** The dare's card on a page, by its text (null: not shown). */
function card(page: Page, description: string): Element | null {
	return [...page.document.querySelectorAll('li.dare')].find((li) => li.querySelector('.dare__description')?.textContent === description) ?? null
}

function must<T>(value: T | null | undefined, what: string): T {
	if (value === null || value === undefined) throw new Error(`no ${what}`)
	return value
}

/** The balance the header shows. */
function balanceOf(page: Page): number {
	return Number(must(page.document.querySelector('.wallet-balance__amount'), 'wallet balance').textContent!.replace(/\D/g, ''))
}

/** A visitor's page rendered for this request (a query string is never a shared render). */
const fresh = (visitor: Visitor) => visitor.page(`${path}?at=${randomUUID()}`)

/** Writes a dare through the page's form, as a browser without JavaScript posts it. */
async function writeDare(visitor: Visitor, description: string, reward: number): Promise<Page> {
	const page = await visitor.page(path)
	const form = must(page.screen.getByLabelText(tr('en', 'dares.description')).closest('form'), 'dare form')
	return visitor.submit(page, form, { description, reward: String(reward) }, form.querySelector('button[value="create"]')!)
}

/** A report sent through a dare's report form, which its "Report" link opens (the page carries no other report form). */
async function report(visitor: Visitor, description: string, values: Record<string, string>): Promise<Page> {
	const listed = await fresh(visitor)
	const before = must(card(listed, description), `card of ${description}`)
	expect(listed.document.querySelectorAll('form.report-form')).toHaveLength(0)
	const link = must(before.querySelector('a.dare__report'), 'report link')
	const page = await visitor.page(new URL(link.getAttribute('href')!, listed.url).toString())
	expect(page.document.querySelectorAll('form.report-form')).toHaveLength(1)
	const form = must(must(card(page, description), `card of ${description}`).querySelector('form.report-form'), 'report form')
	return visitor.submit(page, form, values, form.querySelector('button[value="report"]')!)
}

/** A form post as a client that skipped the page's checks sends it; the page it comes back to. */
function post(visitor: Visitor, fields: Record<string, string>): Promise<Page> {
	return visitor.page(path, {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(visitor.server.url).origin },
		body: new URLSearchParams(fields).toString(),
	})
}

/** The subjects of the mails to `to` (the development mailbox, or the SMTP catcher of a Postgres server). */
async function mailSubjects(server: TestServer, to: string): Promise<string[]> {
	if (server.mailbox) {
		const mails = (await (await fetch(`${server.mailbox}/mails?to=${encodeURIComponent(to)}`)).json()) as Array<{ subject: string }>
		return mails.map((m) => m.subject)
	}
	const html = await (await fetch(`${server.url}/dev/mailbox`)).text()
	return html
		.split('<li class="card">')
		.slice(1)
		.filter((item) => item.includes(`<strong>${to}</strong>`))
		.map((item) => /<h2>([^<]*)<\/h2>/.exec(item)?.[1] ?? '')
}

const received = /^Thanks, your report was received \(reference ([0-9A-F]{8})\)\. Our moderators will review it\.$/

describeEachServer('moderation on the session page', (server) => {
	let emre: Visitor
	let lucia: Visitor
	let jonas: Visitor
	let mia: Visitor
	const free = `Sing the chorus of a song chat picks ${randomUUID().slice(0, 8)}`
	const paid = `Play one round with your eyes closed ${randomUUID().slice(0, 8)}`
	const open = `Speak only in rhymes until the next boss ${randomUUID().slice(0, 8)}`

	beforeAll(async () => {
		emre = await member(server, DEMO_USERS.emre.email)
		lucia = await member(server, DEMO_USERS.lucia.email, { terms: true })
		jonas = await member(server, DEMO_USERS.jonas.email, { terms: true })
		mia = await member(server, DEMO_USERS.mia.email)
	})

	test('the creator holds every new dare: the author is told and sees it waiting, nobody else sees it; the creator approves one and rejects another, refunded', async () => {
		let page = await emre.page(path)
		const hold = must(page.document.querySelector('form.hold-switch'), 'hold switch')
		expect(hold.textContent).toContain(tr('en', 'moderation.hold-state-off'))
		page = await emre.submit(page, hold, {}, hold.querySelector('button[value="hold"]')!)
		expect(toastOf(page)).toEqual({ type: 'success', text: tr('en', 'moderation.hold-on') })
		expect(page.document.querySelector('form.hold-switch')!.textContent).toContain(tr('en', 'moderation.hold-state-on'))

		// Without JavaScript: a free dare, held; the toast says it waits for review.
		page = await writeDare(lucia, free, 0)
		expect(toastOf(page)).toEqual({ type: 'success', text: tr('en', 'moderation.held-created') })
		const mine = must(card(page, free), 'the held dare on its author’s page')
		expect(mine.querySelector('.dare__status')!.textContent).toBe(tr('en', 'moderation.status-held'))
		expect(mine.textContent).toContain(tr('en', 'moderation.held-note-author'))
		expect(mine.querySelector('form.dare__boost, form.dare__vote, form.report-form, a.dare__report')).toBeNull()
		const before = balanceOf(page)

		// As the page's script sends it (a fetcher, respond=data): the answer is data with the same toast and the dare as held.
		const fetcherPost = await lucia.fetch(`${path}.data`, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(server.url).origin },
			body: new URLSearchParams({ intent: 'create', sessionId: session.id, description: paid, reward: '200', key: `create:${randomUUID()}`, respond: 'data' }).toString(),
		})
		expect(fetcherPost.status).toBe(200)
		const answer = await fetcherPost.text()
		expect(answer).toContain(tr('en', 'moderation.held-created'))
		expect(answer).toContain('"held"')
		page = await lucia.page(path)
		expect(balanceOf(page)).toBe(before - 200)
		expect(card(page, paid)?.querySelector('.dare__status')?.textContent).toBe(tr('en', 'moderation.status-held'))

		// Visitors and other viewers do not see held dares.
		for (const other of [new Visitor(server), jonas]) {
			const theirs = await fresh(other)
			expect(card(theirs, free)).toBeNull()
			expect(card(theirs, paid)).toBeNull()
		}

		// The creator sees both, with Approve and Reject.
		page = await emre.page(path)
		const approve = must(card(page, free)?.querySelector('button[value="approve"]'), 'approve button')
		expect(card(page, paid)?.querySelector('button[value="reject"]')).not.toBeNull()
		page = await emre.submit(page, approve.closest('form')!, {}, approve)
		expect(toastOf(page)).toEqual({ type: 'success', text: tr('en', 'moderation.approved') })
		expect(card(await fresh(new Visitor(server)), free)?.querySelector('.dare__status')?.textContent).toBe(tr('en', 'dares.status-open'))

		const reject = must(card(page, paid)?.querySelector('button[value="reject"]'), 'reject button')
		page = await emre.submit(page, reject.closest('form')!, {}, reject)
		expect(toastOf(page)).toEqual({ type: 'success', text: tr('en', 'dares.rejected') })
		expect(card(page, paid)).toBeNull()
		page = await lucia.page(path)
		expect(card(page, paid)).toBeNull()
		expect(balanceOf(page)).toBe(before)

		page = await emre.page(path)
		const off = page.document.querySelector('form.hold-switch')!
		page = await emre.submit(page, off, {}, off.querySelector('button[value="hold"]')!)
		expect(toastOf(page)).toEqual({ type: 'success', text: tr('en', 'moderation.hold-off') })
		page = await writeDare(lucia, open, 200)
		expect(toastOf(page)).toEqual({ type: 'success', text: tr('en', 'dares.created') })
	})

	test('reports: signed in (a receipt by mail), again (being reviewed), of one’s own dare (refused), as a visitor with and without a name and address', async () => {
		const details = 'It mocks a viewer in chat by name.'
		let page = await report(jonas, free, { reason: 'harassment', details, goodFaith: 'yes' })
		const toast = must(toastOf(page), 'toast')
		expect(toast.type).toBe('success')
		const reference = must(received.exec(toast.text), `the received toast, not "${toast.text}"`)[1]!
		await vi.waitFor(async () => expect(await mailSubjects(server, DEMO_USERS.jonas.email)).toContain(`We received your report (${reference})`), { timeout: 10_000, interval: 100 })

		page = await report(jonas, free, { reason: 'harassment', details, goodFaith: 'yes' })
		expect(toastOf(page)).toEqual({ type: 'info', text: tr('en', 'moderation.report-replayed') })

		// Lucia's page offers no report of her own dare; sent anyway, it is refused.
		const own = await fresh(lucia)
		expect(card(own, free)?.querySelector('form.report-form, a.dare__report')).toBeNull()
		const dareId = card(own, free)!.id.replace('dare-', '')
		page = await post(lucia, { intent: 'report', dareId, reason: 'spam', details, goodFaith: 'yes' })
		expect(toastOf(page)).toEqual({ type: 'error', text: tr('en', 'errors.error-report-own-dare') })

		const visitor = Visitor.decided(server)
		const email = `reporter-${randomUUID().slice(0, 8)}@example.com`
		page = await report(visitor, free, { reason: 'other', details, name: '', email: '', goodFaith: 'yes' })
		expect(toastOf(page)).toEqual({ type: 'error', text: tr('en', 'errors.error-report-name-required') })
		// Refused, the page comes back with that dare's form open beside the error; sent, without it.
		expect(page.document.querySelectorAll('form.report-form')).toHaveLength(1)
		expect(card(page, free)?.querySelector('form.report-form')).not.toBeNull()
		page = await report(visitor, free, { reason: 'other', details, name: 'Ada Visitor', email, goodFaith: 'yes' })
		expect(page.document.querySelectorAll('form.report-form')).toHaveLength(0)
		const visitorToast = must(toastOf(page), 'toast')
		expect(visitorToast.type).toBe('success')
		const visitorReference = must(received.exec(visitorToast.text), `the received toast, not "${visitorToast.text}"`)[1]!
		await vi.waitFor(async () => expect(await mailSubjects(server, email)).toContain(`We received your report (${visitorReference})`), { timeout: 10_000, interval: 100 })
	})

	test('bad input on the new forms: a translated error, nothing changed', async () => {
		const details = 'Dangerous for the streamer.'
		// A reason off the list is refused and nothing is stored: Mia's next, proper report is new, not a replay.
		let page = await report(mia, free, { reason: 'boring', details, goodFaith: 'yes' })
		expect(toastOf(page)).toEqual({ type: 'error', text: tr('en', 'errors.error-invalid-report-reason') })
		// A report the schema refuses goes back to its form too.
		expect(card(page, free)?.querySelector('form.report-form')).not.toBeNull()
		page = await report(mia, free, { reason: 'violence', details, goodFaith: '' })
		expect(toastOf(page)).toEqual({ type: 'error', text: tr('en', 'errors.error-report-good-faith-required') })
		page = await report(mia, free, { reason: 'violence', details: 'x'.repeat(1001), goodFaith: 'yes' })
		expect(toastOf(page)).toEqual({ type: 'error', text: tr('en', 'errors.error-report-details-too-long') })
		page = await report(mia, free, { reason: 'violence', details, goodFaith: 'yes' })
		expect(toastOf(page)?.text).toMatch(received)

		page = await post(emre, { intent: 'hide', dareId: 'not-a-dare' })
		expect(toastOf(page)).toEqual({ type: 'error', text: tr('en', 'errors.error-dare-not-found') })
		page = await post(emre, { intent: 'hold', sessionId: session.id, hold: 'sometimes' })
		expect(toastOf(page)).toEqual({ type: 'error', text: tr('en', 'errors.error-invalid-setting') })
		page = await post(emre, { intent: 'ban', userId: 'everyone' })
		expect(toastOf(page)).toEqual({ type: 'error', text: tr('en', 'errors.error-ban-unknown-user') })
		expect(page.document.querySelector('form.hold-switch')!.textContent).toContain(tr('en', 'moderation.hold-state-off'))
		// Only the creator moderates.
		page = await post(jonas, { intent: 'hide', dareId: card(page, free)!.id.replace('dare-', '') })
		expect(toastOf(page)).toEqual({ type: 'error', text: tr('en', 'errors.error-not-session-creator') })
		expect(card(await fresh(new Visitor(server)), free)).not.toBeNull()
	})

	test('the creator hides a dare, then bans a viewer, whose boost is then refused', async () => {
		let page = await emre.page(path)
		const hide = must(card(page, free)?.querySelector('button[value="hide"]'), 'hide button')
		expect(hide.textContent).toBe(tr('en', 'moderation.hide-refund'))
		page = await emre.submit(page, hide.closest('form')!, {}, hide)
		expect(toastOf(page)).toEqual({ type: 'success', text: tr('en', 'moderation.hidden') })
		expect(card(page, free)).toBeNull()
		expect(card(await fresh(new Visitor(server)), free)).toBeNull()

		// Emre's own cards have no ban; Jonas's dare offers "Ban jonas".
		const ban = must(card(page, jonasDare.description)?.querySelector('button[value="ban"]'), 'ban button')
		expect(ban.textContent).toBe(tr('en', 'moderation.ban', { author: DEMO_USERS.jonas.username }))
		page = await emre.submit(page, ban.closest('form')!, {}, ban)
		expect(toastOf(page)).toEqual({ type: 'success', text: tr('en', 'moderation.banned') })
		// His running dare there is removed (refunded).
		expect(card(await fresh(new Visitor(server)), jonasDare.description)).toBeNull()

		page = await jonas.page(path)
		const boost = must(card(page, open)?.querySelector('form.dare__boost'), 'boost form')
		page = await jonas.submit(page, boost, { amount: '200' }, boost.querySelector('button[value="boost"]')!)
		expect(toastOf(page)).toEqual({ type: 'error', text: tr('en', 'errors.error-banned') })
	})
})
