import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { DEMO_DARES, DEMO_SESSIONS, DEMO_USERS } from '#app/db/seed.server'
import { tr } from '#tests/e2e/support/i18n'
import { signIn } from '#tests/support/app-server'
import { startTestServer, type ServerKind, type TestServerProcess } from '#tests/support/test-server'
import { Visitor, type Page, type TestServer } from './support'

/**
 * The creator on stream (docs/product.md §5.4, §5.8, §5.9, §6.7) as a browser
 * without JavaScript meets it, and as the page's script sends a form: Mia's
 * view of her live demo session (the running vote, the queue), extending and
 * cancelling the vote, stopping through the confirmation, and the recap on
 * the ended session's page and in her sessions list, which nobody else sees.
 * Stopping Mia's session would change what other request-level tests read,
 * so this file runs servers of its own (fresh demo data on each database).
 */
const live = DEMO_SESSIONS.miaLive
const path = `/en/session/${live.id}`
const dare = (id: string) => DEMO_DARES.find((d) => d.id.endsWith(id))!
const voting = dare('d0001')
const open = dare('d0002')
const accepted = dare('d0003')

const kinds: ServerKind[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite']

/** The toast a page came back with (the flash rendered without JavaScript). */
function toastOf(page: Page): { type: string; text: string } | null {
	const flash = page.document.querySelector('.flash')
	if (!flash) return null
	return { type: flash.className.replace(/.*flash--(\w+).*/, '$1'), text: flash.querySelector('strong')?.textContent ?? '' }
}

function must<T>(value: T | null | undefined, what: string): T {
	if (value === null || value === undefined) throw new Error(`no ${what}`)
	return value
}

/** The creator's view, or null. */
const viewOf = (page: Page) => page.document.querySelector('section#creator-view')

/** When the view says the running vote ends. */
function endsAt(page: Page): number {
	return Date.parse(must(viewOf(page)?.querySelector('time[datetime]')?.getAttribute('datetime'), 'countdown'))
}

/** The view's form holding `button`'s value for `intent` (and, for more time, `seconds`). */
function viewForm(page: Page, intent: string, seconds?: number): { form: Element; button: Element } {
	const forms = [...must(viewOf(page), 'creator view').querySelectorAll('form')]
	const form = must(
		forms.find((f) => f.querySelector(`button[value="${intent}"]`) && (seconds === undefined || f.querySelector(`input[name="seconds"][value="${seconds}"]`))),
		`${intent} form`,
	)
	return { form, button: form.querySelector(`button[value="${intent}"]`)! }
}

for (const kind of kinds) {
	describe(`the creator on stream (${kind})`, () => {
		let running: TestServerProcess
		let server: TestServer
		let mia: Visitor
		let jonas: Visitor

		/** A demo account signed in through the sign-in form, its cookies in a visitor's jar. */
		async function member(email: string): Promise<Visitor> {
			const visitor = Visitor.decided(server)
			for (const pair of (await signIn(server.url, email)).split('; ')) {
				const at = pair.indexOf('=')
				visitor.cookies.set(pair.slice(0, at), pair.slice(at + 1))
			}
			return visitor
		}

		/** A form post as a client that skipped the page's checks sends it; the page it comes back to. */
		const post = (visitor: Visitor, fields: Record<string, string>) =>
			visitor.page(path, {
				method: 'POST',
				headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(server.url).origin },
				body: new URLSearchParams(fields).toString(),
			})

		beforeAll(async () => {
			running = await startTestServer(kind)
			server = { kind, url: running.url, mailbox: kind === 'postgres' ? `http://127.0.0.1:${running.port + 1000}` : null }
			mia = await member(DEMO_USERS.mia.email)
			jonas = await member(DEMO_USERS.jonas.email)
		}, 180_000)

		afterAll(async () => {
			await running?.stop()
		})

		test('the creator’s view: the running vote and the queue, most coins first; more time and a cancelled vote, for the creator only', async () => {
			let page = await mia.page(path)
			const view = must(viewOf(page), 'creator view')
			expect(view.querySelector('h2')!.textContent).toBe(tr('en', 'sessions.creator-view-title'))
			expect(view.querySelector('.creator-view__dare')!.textContent).toBe(voting.description)
			expect([...view.querySelectorAll('.creator-view__description')].map((p) => p.textContent)).toEqual([open.description, accepted.description])
			expect(view.textContent).toContain(tr('en', 'sessions.queue-summary', { count: 2, coins: '450' }))
			// One tap each: Accept on the open dare, Start the vote on the accepted one, Reject on both.
			const rows = [...view.querySelectorAll('article.creator-view__row')]
			expect(rows.map((row) => [...row.querySelectorAll('button')].map((b) => b.getAttribute('value')))).toEqual([
				['accept', 'reject'],
				['start-voting', 'reject'],
			])
			for (const other of [jonas, new Visitor(server)]) expect(viewOf(await other.page(`${path}?as=${other === jonas ? 'jonas' : 'visitor'}`))).toBeNull()

			// More time, without JavaScript: back to the view with a toast, the deadline later.
			const before = endsAt(page)
			const { form, button } = viewForm(page, 'extend-vote', 60)
			page = await mia.submit(page, form, {}, button)
			expect(toastOf(page)).toEqual({ type: 'success', text: tr('en', 'sessions.vote-extended', { seconds: 60 }) })
			expect(page.url).toMatch(/#creator-view$/)
			expect(endsAt(page) - before).toBe(60_000)
			const more = viewForm(page, 'extend-vote', 120)
			page = await mia.submit(page, more.form, {}, more.button)
			expect(toastOf(page)).toEqual({ type: 'success', text: tr('en', 'sessions.vote-extended', { seconds: 120 }) })
			expect(endsAt(page) - before).toBe(180_000)

			// Refusals, translated: someone else, an amount off the rules, past an hour left.
			const dareId = voting.id
			page = await post(jonas, { intent: 'extend-vote', dareId, seconds: '60', from: 'creator-view' })
			expect(toastOf(page)).toEqual({ type: 'error', text: tr('en', 'errors.error-not-session-creator') })
			page = await post(mia, { intent: 'extend-vote', dareId, seconds: '33' })
			expect(toastOf(page)).toEqual({ type: 'error', text: tr('en', 'errors.error-invalid-vote-extension') })
			let refused: ReturnType<typeof toastOf> = null
			for (let i = 0; i < 8 && refused?.type !== 'error'; i++) refused = toastOf(await post(mia, { intent: 'extend-vote', dareId, seconds: '600' }))
			expect(refused).toEqual({ type: 'error', text: tr('en', 'errors.error-vote-too-long') })
			expect(endsAt(await mia.page(path)) - Date.now()).toBeLessThanOrEqual(3_600_000)

			// Cancelled as the page's script sends it: answered with data, the toast in it.
			const answer = await mia.fetch(`${path}.data`, {
				method: 'POST',
				headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(server.url).origin },
				body: new URLSearchParams({ intent: 'cancel-vote', sessionId: live.id, dareId, from: 'creator-view', respond: 'data' }).toString(),
			})
			expect(answer.status).toBe(200)
			expect(await answer.text()).toContain(tr('en', 'sessions.vote-cancelled'))
			page = await mia.page(path)
			expect(viewOf(page)!.textContent).toContain(tr('en', 'sessions.vote-none'))
			expect(viewOf(page)!.querySelector('time')).toBeNull()
			// The dare is accepted again, first in the queue (most coins), and its vote starts over from nothing.
			const first = viewOf(page)!.querySelector('article.creator-view__row')!
			expect(first.querySelector('.creator-view__description')!.textContent).toBe(voting.description)
			expect(first.querySelector('.dare__status')!.textContent).toBe(tr('en', 'dares.status-accepted'))
			page = await mia.submit(page, first.querySelector('form')!, {}, first.querySelector('button[value="start-voting"]')!)
			expect(toastOf(page)).toEqual({ type: 'success', text: tr('en', 'dares.voting-started') })
			expect(viewOf(page)!.querySelector('.creator-view__tally')!.textContent).toBe(`0 ${tr('en', 'dares.vote-yes')}0 ${tr('en', 'dares.vote-no')}`)
			// Cancelling a vote that is not running: refused.
			page = await post(mia, { intent: 'cancel-vote', dareId: accepted.id })
			expect(toastOf(page)).toEqual({ type: 'error', text: tr('en', 'errors.error-voting-closed') })
		})

		test('stopping asks first and says what it refunds; the recap is the creator’s, on the ended page and in the sessions list', async () => {
			let page = await mia.page(path)
			const stop = must(page.document.querySelector('details.stop-confirm'), 'stop disclosure')
			expect(stop.hasAttribute('open')).toBe(false)
			expect(stop.querySelector('summary')!.textContent).toBe(tr('en', 'sessions.stop-ask'))
			// The open and the accepted dare expire, with the open one's 450 coins; the running vote ends as usual.
			expect([...stop.querySelectorAll('dd')].map((dd) => dd.textContent)).toEqual(['2', '450'])
			expect(stop.textContent).toContain(tr('en', 'sessions.stop-vote-runs'))
			const confirm = must(stop.querySelector('button[value="stop"]'), 'stop button')
			expect(confirm.textContent).toBe(tr('en', 'sessions.stop-confirm'))
			page = await mia.submit(page, confirm.closest('form')!, {}, confirm)
			expect(toastOf(page)).toEqual({ type: 'success', text: tr('en', 'sessions.stopped') })
			expect(viewOf(page)).toBeNull()
			expect(page.document.querySelector('details.stop-confirm')).toBeNull()

			// The recap: 300 coins from the completed dare, one failed, three refunded (rejected, and two expired just now);
			// the top fans by their boosts kept (the running vote's included, the refunded ones left out).
			const recap = must(page.document.querySelector('section#recap'), 'recap')
			const numbers = Object.fromEntries([...recap.querySelectorAll('dl > div')].map((d) => [d.querySelector('dt')!.textContent, d.querySelector('dd')!.textContent]))
			expect(numbers).toEqual({
				[tr('en', 'sessions.recap-earned')]: '300',
				[tr('en', 'sessions.recap-completed')]: '1',
				[tr('en', 'sessions.recap-failed')]: '1',
				[tr('en', 'sessions.recap-refunded')]: '3',
			})
			expect([...recap.querySelectorAll('.recap__fans li')].map((li) => li.textContent)).toEqual([
				`lucia ${tr('en', 'sessions.recap-fan-coins', { coins: '450' })}`,
				`jonas ${tr('en', 'sessions.recap-fan-coins', { coins: '350' })}`,
			])
			// To share: the session's own address (its page shows the share card), with a thanks and no coins.
			const share = must(recap.querySelector('textarea'), 'share text') as HTMLTextAreaElement
			expect(share.textContent).toBe(`${tr('en', 'sessions.recap-share-text', { title: live.title })} ${server.url}/en/session/${live.id}`)
			expect(recap.querySelector(`a[href="/en/session/${live.id}/card.png"]`)).not.toBeNull()
			expect((await mia.fetch(`/en/session/${live.id}/card.png`)).headers.get('content-type')).toBe('image/png')
			// In every language.
			expect((await mia.page(`/de/session/${live.id}`)).document.querySelector('#recap h2')!.textContent).toBe(tr('de', 'sessions.recap-title'))

			// The vote goes on after the stop, but its time is not the creator's to change any more.
			page = await post(mia, { intent: 'extend-vote', dareId: voting.id, seconds: '60' })
			expect(toastOf(page)).toEqual({ type: 'error', text: tr('en', 'errors.error-session-not-active') })

			// Nobody else sees a recap, on the page or in the list.
			for (const other of [jonas, new Visitor(server)]) {
				const theirs = await other.page(`/en/session/${DEMO_SESSIONS.miaEnded.id}?as=${other === jonas ? 'jonas' : 'visitor'}`)
				expect(theirs.document.querySelector('.recap-line')).toBeNull()
				expect((await other.page(`${path}?as=${other === jonas ? 'jonas' : 'visitor'}`)).document.querySelector('#recap')).toBeNull()
			}

			// Mia's sessions list: each ended session with its recap in a line and a link to the full one.
			const list = await mia.page(`/en/session/${DEMO_SESSIONS.miaEnded.id}`)
			const item = must(
				[...list.document.querySelectorAll('.other-sessions li')].find((li) => li.textContent!.includes(live.title)),
				'the stopped session in the list',
			)
			const line = must(item.querySelector('.recap-line'), 'recap line')
			expect(line.textContent).toContain(tr('en', 'sessions.recap-line', { coins: '300', completed: '1', failed: '1', refunded: '3' }))
			expect(line.textContent).toContain(tr('en', 'sessions.recap-line-fans', { fans: 'lucia (450), jonas (350)' }))
			expect(line.querySelector('a')!.getAttribute('href')).toBe(`/en/session/${live.id}#recap`)
		})
	})
}
