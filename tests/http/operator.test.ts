import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, test, vi } from 'vitest'
import { asUser } from '#app/db/as-user.server'
import type { Database, Queryable } from '#app/db/database.server'
import { DEMO_SESSIONS, DEMO_USERS } from '#app/db/seed.server'
import { setOperator } from '#app/modules/moderation/operator-grant.server'
import { tr } from '#tests/e2e/support/i18n'
import { consoleCard, describeEachServer, flash, mailsTo, serverOfItsOwn, signedIn, Visitor, type TestServer } from './support'

/**
 * The operators' console, the statement of reasons and the appeal
 * (docs/product.md §13.3), as a browser without JavaScript meets them.
 *
 * The console is a 404 for everyone but operators, on the shared servers.
 * The journey needs the owner connection beside the running app (to make an
 * operator and to write the dares and reports the console decides), so it
 * runs on a server of its own: on Postgres (TEST_DATABASE_URL) with the
 * connection open beside it; on embedded PGlite, one process's database,
 * the server stops while the test writes (sign-ins survive: they are rows).
 */

const operator = DEMO_USERS.lucia
const author = DEMO_USERS.jonas
const miaLive = DEMO_SESSIONS.miaLive
const emreLive = DEMO_SESSIONS.emreLive




/** The appeal link of the newest statement of reasons with this subject. */
async function appealLinkIn(server: TestServer, to: string, subject: string): Promise<string> {
	const mail = (await mailsTo(server, to, subject)).find((m) => m.subject === subject)!
	const link = mail.text.match(/https?:\/\/\S+\/en\/appeal\/[0-9a-f-]{36}/)?.[0]
	if (!link) throw new Error(`no appeal link in "${subject}":\n${mail.text}`)
	return new URL(link).pathname
}


describeEachServer('the operators’ console is nobody else’s', (server) => {
	test('a visitor and a signed-in user who is no operator get the 404 page, for the page and its form', async () => {
		const visitor = await Visitor.decided(server).page('/en/operator')
		expect(visitor.status).toBe(404)
		const user = await signedIn(server, author.email)
		const page = await user.page('/de/operator')
		expect(page.status).toBe(404)
		expect(page.html).not.toContain(tr('de', 'operator.title'))
		const posted = await user.fetch('/en/operator', {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url },
			body: new URLSearchParams({ kind: 'report', target: randomUUID(), action: 'dismiss_report', ground: 'none', explanation: 'x' }).toString(),
		})
		expect(posted.status).toBe(404)
	})
})

const KINDS = process.env.TEST_DATABASE_URL ? (['pglite', 'postgres'] as const) : (['pglite'] as const)

for (const kind of KINDS) {
	describe(`reports decided, statements of reasons, appeals (${kind}, a server of its own)`, () => {
		const own = serverOfItsOwn(kind, 'operator')
		let server: TestServer
		beforeAll(() => {
			server = own.server
		})
		const withOwner = <T,>(fn: (db: Database) => Promise<T>) => own.withOwner(fn)

		test('remove a reported dare, appeal once; suspend, grant the appeal, the author dares again', async () => {
			const as = <T>(db: Database, userId: string, fn: (tx: Queryable) => Promise<T>) => asUser(db, { sub: userId, role: 'authenticated' }, fn)
			const insult = `Tell the viewer called Max he is worthless ${randomUUID().slice(0, 6)}`
			const advert = `Shout out my shop at cheap-coins.example ${randomUUID().slice(0, 6)}`
			const slur = 'Call the loser in chat a retard'

			// Not an operator yet: the console is a 404 for Lucia too.
			const lucia = await signedIn(server, operator.email)
			expect((await lucia.page('/en/operator')).status).toBe(404)

			// With the owner connection: Lucia made an operator (what `npm run operator:grant` does);
			// Jonas writes two dares and one the filter holds; Emre and Mia report the first two.
			const ids = await withOwner(async (db) => {
				expect((await setOperator(db, operator.email, true)).changed).toBe(true)
				// Jonas accepts the current terms, as the terms dialog would have him do before his first dare.
				await db.query(
					`insert into public.consents (user_id, kind, version) values ($1, 'terms_of_service', app_private.current_document_version('terms_of_service'))`,
					[author.id],
				)
				const write = (session: string, description: string) =>
					as(db, author.id, async (tx) => {
						const { rows } = await tx.query<{ min_boost: number }>('select min_boost from public.sessions where id = $1', [session])
						return (await tx.query<{ id: string }>('select id from public.create_dare($1, $2, $3, $4, $5)', [description, session, rows[0]!.min_boost, randomUUID(), 'en'])).rows[0]!.id
					})
				const dares = { insult: await write(miaLive.id, insult), advert: await write(emreLive.id, advert), slur: await write(emreLive.id, slur) }
				await as(db, DEMO_USERS.emre.id, (tx) => tx.query(`select * from public.report_dare($1, 'harassment', 'It insults a viewer by name.', true, 'en')`, [dares.insult]))
				await as(db, DEMO_USERS.mia.id, (tx) => tx.query(`select * from public.report_dare($1, 'spam', 'Werbung für einen Shop.', true, 'de')`, [dares.advert]))
				return dares
			})

			// The console: both reports and the held dare, oldest first, with what an operator needs.
			let queue = await lucia.page('/en/operator')
			expect(queue.status).toBe(200)
			expect(queue.screen.getByRole('heading', { level: 1 }).textContent).toBe(tr('en', 'operator.title'))
			const report = consoleCard(queue, insult)
			expect(report.textContent).toContain(tr('en', 'operator.report-title', { reason: tr('en', 'operator.grounds.harassment') }))
			expect(report.textContent).toContain('It insults a viewer by name.')
			expect(report.textContent).toContain(DEMO_USERS.emre.username)
			expect(report.textContent).toContain(author.username)
			expect(report.querySelector(`a[href="/en/session/${miaLive.id}#dare-${ids.insult}"]`)?.textContent).toBe(miaLive.title)
			expect(consoleCard(queue, slur).textContent).toContain(tr('en', 'operator.held-filter'))
			const order = [...queue.document.querySelectorAll('article.moderation-item')].map((a) => a.textContent ?? '')
			expect(order.findIndex((t) => t.includes(insult))).toBeLessThan(order.findIndex((t) => t.includes(advert)))

			// Without JavaScript a form the browser would have stopped comes back with what was typed and why.
			const held = consoleCard(queue, slur)
			const refused = await lucia.submit(queue, held.querySelector('form')!, { action: 'approve_dare', ground: 'hate', explanation: 'Kept for the record.' })
			expect(refused.status).toBe(400)
			const again = consoleCard(refused, slur)
			expect(again.querySelector('[role="alert"]')?.textContent).toBe(tr('en', 'operator.ground-none'))
			expect(again.querySelector('textarea')?.textContent).toBe('Kept for the record.')

			// Remove the insult: the dare is gone from its session, Jonas gets the statement of reasons, Emre the outcome.
			queue = await lucia.submit(queue, report.querySelector('form')!, {
				action: 'remove_dare',
				ground: 'harassment',
				explanation: 'The dare insults a viewer by name.',
			})
			expect(flash(queue, 'success')).toBe(tr('en', 'operator.decided-remove'))
			expect(queue.html).not.toContain(insult)
			await vi.waitFor(async () => expect((await Visitor.decided(server).page(`/en/session/${miaLive.id}`)).html).not.toContain(insult), { timeout: 5_000 })

			const statement = (await mailsTo(server, author.email, 'We removed your dare')).find((m) => m.subject === 'We removed your dare')!
			for (const part of [insult, 'The dare insults a viewer by name.', 'Section 6 of our terms (content rules): harassment', 'Someone reported this to us', 'Art. 21']) {
				expect(statement.text).toContain(part)
			}
			const removalAppeal = await appealLinkIn(server, author.email, 'We removed your dare')
			expect((await mailsTo(server, DEMO_USERS.emre.email, 'The outcome of your report'))[0]!.text).toContain('We removed the dare')

			// The appeal page: signed-in users only, the affected one only.
			const away = await Visitor.decided(server).page(removalAppeal)
			expect(new URL(away.url).pathname).toBe('/en/login')
			expect((await lucia.page(removalAppeal)).status).toBe(404)
			const jonas = await signedIn(server, author.email)
			const decision = await jonas.page(removalAppeal)
			expect(decision.screen.getByRole('heading', { level: 2, name: tr('en', 'appeal.what-remove_dare') })).toBeTruthy()
			expect(decision.html).toContain(insult)
			expect(decision.html).toContain(tr('en', 'appeal.rule-text', { ground: tr('en', 'operator.grounds.harassment') }))
			const appealForm = decision.screen.getByLabelText(tr('en', 'appeal.statement')).closest('form')!
			const appealed = await jonas.submit(decision, appealForm, { statement: 'Max is my brother; it was a family joke.' })
			expect(flash(appealed, 'success')).toBe(tr('en', 'appeal.sent'))
			expect(appealed.document.querySelector('.notice[role="status"]')?.textContent).toMatch(/^Your appeal was received on .+ and is being reviewed\./)
			expect(appealed.document.querySelector('textarea')).toBeNull()
			// The same form sent again: refused, once is all.
			const twice = await jonas.submit(decision, appealForm, { statement: 'Please look again.' })
			expect(flash(twice, 'error')).toBe(tr('en', 'errors.error-appeal-already-made'))

			// Suspend the author on Mia's report: Jonas can no longer dare; Mia is told in German.
			queue = await lucia.page('/en/operator')
			queue = await lucia.submit(queue, consoleCard(queue, advert).querySelector('form')!, {
				action: 'suspend_user',
				ground: 'spam',
				explanation: 'Advertising a shop in a dare.',
			})
			expect(flash(queue, 'success')).toBe(tr('en', 'operator.decided-suspend'))
			expect((await mailsTo(server, DEMO_USERS.mia.email, 'Das Ergebnis deiner Meldung'))[0]!.text).toContain('Wir haben das Konto der Person gesperrt')
			const suspensionAppeal = await appealLinkIn(server, author.email, 'We suspended your Dareboost account')

			const writeDare = async (description: string) => {
				const session = await jonas.page(`/en/session/${emreLive.id}`)
				const form = session.screen.getByLabelText(tr('en', 'dares.description')).closest('form')!
				return jonas.submit(session, form, { description })
			}
			expect(flash(await writeDare('Play one round blindfolded'), 'error')).toBe(tr('en', 'errors.error-account-suspended'))

			const suspension = await jonas.page(suspensionAppeal)
			await jonas.submit(suspension, suspension.screen.getByLabelText(tr('en', 'appeal.statement')).closest('form')!, { statement: 'The shop is a charity raffle.' })

			// Both appeals wait on the console; granting the suspension's lifts it.
			queue = await lucia.page('/en/operator')
			expect(queue.document.querySelectorAll('#moderation-appeals ~ ol > li')).toHaveLength(2)
			const appealCard = consoleCard(queue, 'The shop is a charity raffle.')
			expect(appealCard.textContent).toContain('Advertising a shop in a dare.')
			queue = await lucia.submit(queue, appealCard.querySelector('form')!, {
				action: 'appeal_granted',
				ground: 'none',
				explanation: 'On review the raffle is for charity and was announced by the creator.',
			})
			expect(flash(queue, 'success')).toBe(tr('en', 'operator.decided-granted'))
			expect(queue.html).not.toContain('The shop is a charity raffle.')
			expect((await mailsTo(server, author.email, 'Your appeal was successful'))[0]!.text).toContain('Your account is no longer suspended')
			expect((await jonas.page(suspensionAppeal)).document.querySelector('.notice[role="status"]')?.textContent).toMatch(/^Your appeal was granted on /)

			expect(flash(await writeDare('Play one round blindfolded'), 'success')).toBe(tr('en', 'dares.created'))
		}, 240_000)
	})
}
