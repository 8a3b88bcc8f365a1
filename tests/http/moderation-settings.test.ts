import pg from 'pg'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { DEMO_USERS } from '#app/db/seed.server'
import type { Locale } from '#app/i18n/locales'
import { tr } from '#tests/e2e/support/i18n'
import { AppServer, scratchDatabase, signIn } from '#tests/support/app-server'
import { Visitor, type Page, type TestServer } from './support'

/**
 * The settings page's moderation parts (app/modules/moderation/settings-section.tsx)
 * without JavaScript: a creator's blocked terms (saved, read back, a refused
 * list changes nothing), banned viewers (listed, unbanned), and the notice
 * of a suspended account. A server of its own on a scratch Postgres
 * database, whose owner connection sets up what only operators' decisions
 * and the session page's ban make (a ban, a suspension). Postgres only, like
 * the other tests that need the database's owner (PGlite is one process's).
 */
const describeWithPostgres = process.env.TEST_DATABASE_URL ? describe : describe.skip

const { mia, jonas, lucia, emre } = DEMO_USERS

describeWithPostgres('moderation in the settings', () => {
	let app: AppServer
	let db: pg.Client
	let server: TestServer
	let drop = async () => {}

	beforeAll(async () => {
		const database = await scratchDatabase('dareboost_modset')
		drop = database.drop
		app = await AppServer.create(database.url, { LOG_LEVEL: 'warn' })
		await app.start()
		server = { kind: 'postgres', url: app.url, mailbox: null }
		db = new pg.Client({ connectionString: database.url })
		await db.connect()
	}, 120_000)

	afterAll(async () => {
		await app?.stop()
		await db?.end().catch(() => {})
		await drop()
	})

	/** A visitor without JavaScript signed in as `email` (the cookie choice made). */
	async function signedIn(email: string): Promise<Visitor> {
		const visitor = Visitor.decided(server)
		for (const pair of (await signIn(app.url, email)).split('; ')) {
			const at = pair.indexOf('=')
			visitor.cookies.set(pair.slice(0, at), pair.slice(at + 1))
		}
		return visitor
	}

	const flash = (page: Page, type: 'success' | 'error') => page.document.querySelector(`.flash--${type}`)?.textContent ?? null

	async function blockedTerms(userId: string): Promise<string[]> {
		const { rows } = await db.query<{ term: string }>('select term from public.blocked_terms where creator_id = $1 order by term', [userId])
		return rows.map((row) => row.term)
	}

	function termsForm(page: Page, lang: Locale) {
		const textarea = page.screen.getByLabelText(tr(lang, 'moderation-settings.terms-label')) as HTMLTextAreaElement
		const button = page.screen.getByRole('button', { name: tr(lang, 'moderation-settings.terms-save') })
		return { textarea, form: textarea.closest('form')!, button }
	}

	test('a creator saves blocked terms and reads them back as stored: lower case, each once, sorted', async () => {
		const visitor = await signedIn(mia.email)
		const settings = await visitor.page('/en/settings')
		expect(settings.status).toBe(200)
		const { textarea, form, button } = termsForm(settings, 'en')
		expect(textarea.value).toBe('')
		settings.screen.getByText(tr('en', 'moderation-settings.terms-count', { count: 0, max: 200 }))

		const saved = await visitor.submit(settings, form, { terms: 'Spoiler*\n  leak \n\nleak\r\nGame Over' }, button)
		expect(saved.status).toBe(200)
		expect(saved.url).toBe(`${app.url}/en/settings`)
		expect(flash(saved, 'success')).toContain(tr('en', 'moderation-settings.terms-saved', { count: 3 }))
		expect(termsForm(saved, 'en').textarea.value).toBe('game over\nleak\nspoiler*')
		saved.screen.getByText(tr('en', 'moderation-settings.terms-count', { count: 3, max: 200 }))
		expect(await blockedTerms(mia.id)).toEqual(['game over', 'leak', 'spoiler*'])

		// An empty field blocks nothing.
		const cleared = await visitor.submit(saved, termsForm(saved, 'en').form, { terms: '' }, termsForm(saved, 'en').button)
		expect(flash(cleared, 'success')).toContain(tr('en', 'moderation-settings.terms-saved', { count: 0 }))
		expect(await blockedTerms(mia.id)).toEqual([])
	})

	test('a refused list answers with the translated error as a toast and at the field, keeps what was typed, and changes nothing', async () => {
		await db.query(`insert into public.blocked_terms (creator_id, term) values ($1, 'keep')`, [emre.id])
		const visitor = await signedIn(emre.email)
		const settings = await visitor.page('/de/settings')
		const cases: Array<[string, string]> = [
			// The form's own check (too short)...
			['fine\nx', 'error-invalid-blocked-term'],
			// ...the database's (no word its filter can read)...
			['fine\n你好', 'error-invalid-blocked-term'],
			// ...and the limit.
			[Array.from({ length: 201 }, (_, i) => `term${i}`).join('\n'), 'error-too-many-blocked-terms'],
		]
		for (const [terms, code] of cases) {
			const { form, button } = termsForm(settings, 'de')
			const refused = await visitor.submit(settings, form, { terms }, button)
			// 200: see saveBlockedTerms (with JavaScript, the toast comes with the loaders read again).
			expect(refused.status, terms.slice(0, 20)).toBe(200)
			const message = tr('de', `errors.${code}`)
			expect(flash(refused, 'error')).toContain(message)
			const again = termsForm(refused, 'de')
			expect(again.textarea.value).toBe(terms)
			expect(again.textarea.getAttribute('aria-invalid')).toBe('true')
			expect(refused.document.getElementById(`${again.textarea.id}-error`)?.textContent).toBe(message)
			expect(await blockedTerms(emre.id)).toEqual(['keep'])
		}
	})

	test('a banned viewer is listed with the date and unbanned with their button', async () => {
		await db.query(`insert into public.creator_bans (creator_id, user_id, created_at) values ($1, $2, '2026-03-14T12:00:00Z')`, [lucia.id, jonas.id])
		const visitor = await signedIn(lucia.email)
		const settings = await visitor.page('/en/settings')
		const bans = settings.screen.getByRole('region', { name: tr('en', 'moderation-settings.bans-title') })
		expect(bans.textContent).toContain('jonas')
		expect(bans.textContent).toContain(tr('en', 'moderation-settings.bans-since', { date: 'Mar 14, 2026' }))
		const unban = settings.screen.getByRole('button', { name: tr('en', 'moderation-settings.unban-label', { username: 'jonas' }) })

		const after = await visitor.submit(settings, unban.closest('form')!, {}, unban)
		expect(after.url).toBe(`${app.url}/en/settings`)
		expect(flash(after, 'success')).toContain(tr('en', 'moderation-settings.unbanned', { username: 'jonas' }))
		after.screen.getByText(tr('en', 'moderation-settings.bans-empty'))
		expect(after.screen.queryByRole('button', { name: tr('en', 'moderation-settings.unban-label', { username: 'jonas' }) })).toBeNull()
		expect((await db.query('select 1 from public.creator_bans where creator_id = $1', [lucia.id])).rowCount).toBe(0)

		// Sent again (a second tab): nothing to lift, said so.
		const twice = await visitor.submit(settings, unban.closest('form')!, {}, unban)
		expect(flash(twice, 'error')).toContain(tr('en', 'errors.error-ban-not-found'))
	})

	test('a viewer without a channel sees no creator sections; a suspended account sees the notice at the top', async () => {
		const viewer = await signedIn(jonas.email)
		const plain = await viewer.page('/en/settings')
		expect(plain.status).toBe(200)
		expect(plain.screen.queryByRole('region', { name: tr('en', 'moderation-settings.terms-title') })).toBeNull()
		expect(plain.screen.queryByRole('region', { name: tr('en', 'moderation-settings.bans-title') })).toBeNull()
		expect(plain.screen.queryByRole('region', { name: tr('en', 'moderation-settings.restricted-title') })).toBeNull()

		await db.query(`insert into app_private.account_restrictions (user_id, suspended_at) values ($1, now())`, [jonas.id])
		for (const lang of ['en', 'tr'] as const) {
			const page = await viewer.page(`/${lang}/settings`)
			const notice = page.screen.getByRole('region', { name: tr(lang, 'moderation-settings.restricted-title') })
			expect(notice.textContent).toContain(tr(lang, 'moderation-settings.suspended'))
			expect(notice.textContent).toContain(tr(lang, 'moderation-settings.restricted-appeal'))
			expect(notice.textContent).not.toContain(tr(lang, 'moderation-settings.payouts-restricted'))
			// First thing under the title.
			expect(page.document.querySelector('.settings > h1')?.nextElementSibling).toBe(notice)
		}

		await db.query(`update app_private.account_restrictions set suspended_at = null, payouts_restricted_at = now() where user_id = $1`, [jonas.id])
		const payouts = await viewer.page('/en/settings')
		const notice = payouts.screen.getByRole('region', { name: tr('en', 'moderation-settings.restricted-title') })
		expect(notice.textContent).toContain(tr('en', 'moderation-settings.payouts-restricted'))
		expect(notice.textContent).not.toContain(tr('en', 'moderation-settings.suspended'))
	})
})
