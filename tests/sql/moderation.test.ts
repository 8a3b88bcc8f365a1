import { randomUUID } from 'node:crypto'
import { expect, test } from 'vitest'
import { asUser } from '#app/db/as-user.server'
import type { Database, Queryable } from '#app/db/database.server'
import { publishDocumentVersions } from '#app/db/published-documents.server'
import { syncFilterTerms } from '#app/modules/moderation/filter.server'
import { claimsFor, describeEachDatabase, errorOf } from '#tests/support/databases'
import { liveSession, participant, type Session } from '#tests/support/dares'
import { abusive, harmless } from '#tests/support/moderation-corpus'
import { ledgerProblems } from '#tests/support/wallet'

/**
 * Moderation's rules (docs/product.md §13) as the database enforces them:
 * the text filter, held and removed dares, the creator's controls, reports,
 * operators' decisions and appeals. Every call goes as an API role goes
 * (anon, or `authenticated` with the user's claims), so a direct call
 * through the Data API meets the same rules; after the money cases the
 * ledger holds (ledger.check() has no row) and who got which coins is
 * checked.
 */

const key = () => randomUUID()

function as<T>(db: Database, userId: string | null, fn: (tx: Queryable) => Promise<T>): Promise<T> {
	return asUser(db, userId ? claimsFor(userId) : null, fn)
}


async function dare(db: Database, author: string, sessionId: string, description = 'Sing the chorus backwards', reward = 0) {
	return as(db, author, async (tx) => {
		const { rows } = await tx.query<{ id: string; status: string }>('select id, status from public.create_dare($1, $2, $3, $4, $5)', [
			description,
			sessionId,
			reward,
			key(),
			'en',
		])
		return rows[0]!
	})
}

async function boost(db: Database, userId: string, dareId: string, amount: number) {
	await as(db, userId, (tx) => tx.query('select 1 from public.boost_dare($1, $2, $3)', [dareId, amount, key()]))
}

async function balance(db: Queryable, userId: string): Promise<number> {
	return Number((await db.query<{ balance: string }>('select balance from public.wallets where id = $1', [userId])).rows[0]?.balance ?? NaN)
}

async function statusOf(db: Queryable, dareId: string): Promise<string> {
	return (await db.query<{ status: string }>('select status from public.dares where id = $1', [dareId])).rows[0]!.status
}

/** The dare ids a reader gets from the session page's function. */
async function pageDares(db: Database, reader: string | null, sessionId: string): Promise<string[]> {
	return as(db, reader, async (tx) => (await tx.query<{ id: string }>('select id from public.session_dares($1)', [sessionId])).rows.map((r) => r.id))
}

async function operator(db: Queryable): Promise<string> {
	const id = await participant(db)
	await db.query('insert into app_private.operators (user_id) values ($1)', [id])
	return id
}

/** A database with published terms (participants accept them) and the filter's word lists. */
async function ready(db: Database): Promise<number> {
	await publishDocumentVersions(db, { terms_of_service: 'v1', creator_agreement: 'v1' })
	return syncFilterTerms(db)
}

async function verdict(db: Queryable, text: string, creator: string | null = null): Promise<string> {
	return (await db.query<{ v: string }>('select app_private.text_verdict($1, $2) as v', [text, creator])).rows[0]!.v
}

describeEachDatabase('the text filter', (getDb) => {
	test('every abusive dare of the corpus is held, plain or disguised, and every harmless one is allowed', async () => {
		const db = getDb()
		expect(await ready(db)).toBeGreaterThan(400)
		const held: string[] = []
		for (const { text } of abusive) if ((await verdict(db, text)) !== 'held') held.push(text)
		expect(held, 'abusive texts the filter let through').toEqual([])
		const stopped: string[] = []
		for (const { text } of harmless) if ((await verdict(db, text)) !== 'allowed') stopped.push(text)
		expect(stopped, 'harmless texts the filter held').toEqual([])
		for (const text of ['sikke', 'Amsterdam', 'Scunthorpe', 'I am on a boat', 'Niger', 'Fagott']) expect(await verdict(db, text), text).toBe('allowed')
		// A second start finds the lists in place and writes nothing; a changed list replaces the old one.
		await syncFilterTerms(db)
		await db.query(`select app_private.set_filter_terms('[{"term": "zonk*", "language": "en"}]'::jsonb)`)
		expect(await verdict(db, 'zonkers are here')).toBe('held')
		expect(await verdict(db, 'Call your chat a bunch of faggots')).toBe('allowed')
	})

	test('a dare written straight through the API meets the filter: held, hidden from everyone but its author, the creator and operators', async () => {
		const db = getDb()
		await ready(db)
		const session = await liveSession(db, { max_free_dares_per_user: 5 })
		const author = await participant(db)
		const stranger = await participant(db)
		const op = await operator(db)
		const held = await dare(db, author, session.id, 'Call your mod a wh\u043ere')
		const shown = await dare(db, author, session.id, 'Sing the chorus backwards')
		expect([held.status, shown.status]).toEqual(['held', 'open'])

		for (const reader of [null, stranger]) {
			expect(await pageDares(db, reader, session.id)).toEqual([shown.id])
			const direct = await as(db, reader, async (tx) => (await tx.query<{ id: string }>('select id from public.dares where session_id = $1', [session.id])).rows)
			expect(direct).toEqual([{ id: shown.id }])
		}
		for (const reader of [author, session.creator, op]) expect((await pageDares(db, reader, session.id)).sort()).toEqual([held.id, shown.id].sort())
		// Live updates, home's totals and the overlay read without a reader: no held dare.
		const live = await db.query<{ id: string }>('select id from app_private.live_dares($1, null)', [session.id])
		expect(live.rows).toEqual([{ id: shown.id }])
		const totals = await db.query<{ dares: number }>('select dares from public.session_totals($1)', [session.id])
		expect(totals.rows).toEqual([{ dares: 1 }])
		const marks = await db.query<{ dare_id: string }>('select dare_id from app_private.realtime_marks where dare_id = $1', [held.id])
		expect(marks.rows).toEqual([])
		// Nobody boosts it, not even to get it seen.
		expect(await errorOf(boost(db, stranger, held.id, 50))).toBe('error-dare-not-boostable')
	})

	test("the creator's blocked terms refuse a dare, and a title; a session may hold every new dare", async () => {
		const db = getDb()
		await ready(db)
		const session = await liveSession(db, { max_free_dares_per_user: 5 })
		const viewer = await participant(db)
		expect(
			await as(db, session.creator, async (tx) => (await tx.query<{ term: string }>('select term from public.set_blocked_terms($1)', [['Spoiler*', ' pineapple ', 'spoiler*']])).rows),
		).toEqual([{ term: 'pineapple' }, { term: 'spoiler*' }])
		expect(await errorOf(dare(db, viewer, session.id, 'Tell us the SPOILERS of the finale'))).toBe('error-dare-blocked-term')
		expect(await errorOf(dare(db, viewer, session.id, 'Eat p i n e a p p l e pizza'))).toBe('error-dare-blocked-term')
		expect(await verdict(db, 'Pineapple party', session.creator)).toBe('refused')
		expect(await verdict(db, 'Pineapple party', null)).toBe('allowed')
		expect(await verdict(db, 'Hurensohn stream', session.creator)).toBe('held')
		// Bad lists change nothing.
		for (const [terms, code] of [
			[['x'], 'error-invalid-blocked-term'],
			[['a*b'], 'error-invalid-blocked-term'],
			[['***'], 'error-invalid-blocked-term'],
			[Array.from({ length: 201 }, (_, i) => `term${i}`), 'error-too-many-blocked-terms'],
		] as const) {
			expect(await errorOf(as(db, session.creator, (tx) => tx.query('select public.set_blocked_terms($1)', [terms])))).toBe(code)
		}
		expect((await db.query('select term from public.blocked_terms where creator_id = $1', [session.creator])).rows).toHaveLength(2)
		// Only the creator sees their terms.
		expect(await as(db, viewer, async (tx) => (await tx.query('select * from public.blocked_terms')).rows)).toEqual([])

		expect(await errorOf(as(db, viewer, (tx) => tx.query('select public.set_hold_new_dares($1, true)', [session.id])))).toBe('error-session-not-active')
		await as(db, session.creator, (tx) => tx.query('select public.set_hold_new_dares($1, true)', [session.id]))
		expect((await dare(db, viewer, session.id, 'Sing the chorus backwards')).status).toBe('held')
	})

	test('a session title with a listed term, or one of the creator\u2019s, is refused', async () => {
		const db = getDb()
		await ready(db)
		const creator = await participant(db)
		await db.query(`insert into public.creator_profiles (id, twitch_channel) values ($1, $2)`, [creator, `c_${randomUUID().slice(0, 8)}`])
		await db.query(
			`insert into public.consents (user_id, kind, version)
			 select $1, 'creator_agreement', app_private.current_document_version('creator_agreement')
			 where app_private.current_document_version('creator_agreement') is not null`,
			[creator],
		)
		await as(db, creator, (tx) => tx.query('select public.set_blocked_terms($1)', [['raid']]))
		const start = (title: string) =>
			as(db, creator, (tx) =>
				tx.query(
					`select public.create_session($1, 200, 5, 1, 'twitch', (select twitch_channel from public.creator_profiles where id = $2), 180)`,
					[title, creator],
				),
			)
		expect(await errorOf(start('Fuck this game'))).toBe('error-title-not-allowed')
		expect(await errorOf(start('Raid night'))).toBe('error-title-not-allowed')
	})
})

describeEachDatabase("the creator's controls", (getDb) => {
	async function setUp(db: Database) {
		await ready(db)
		const session = await liveSession(db, { min_boost: 50, max_free_dares_per_user: 5 })
		return { session, viewer: await participant(db, 1000), other: await participant(db, 1000) }
	}

	test('approving shows a held dare and sends it live; rejecting removes it and refunds its reward', async () => {
		const db = getDb()
		const { session, viewer, other } = await setUp(db)
		await as(db, session.creator, (tx) => tx.query('select public.set_hold_new_dares($1, true)', [session.id]))
		const first = await dare(db, viewer, session.id, 'Sing the chorus backwards', 100)
		const second = await dare(db, viewer, session.id, 'Do ten push-ups', 200)
		expect(await balance(db, viewer)).toBe(700)

		expect(await errorOf(as(db, other, (tx) => tx.query('select public.approve_dare($1)', [first.id])))).toBe('error-not-session-creator')
		await as(db, session.creator, (tx) => tx.query('select public.approve_dare($1)', [first.id]))
		expect(await statusOf(db, first.id)).toBe('open')
		expect(await pageDares(db, null, session.id)).toEqual([first.id])
		const marks = await db.query<{ created: boolean }>('select dare_created as created from app_private.realtime_marks where dare_id = $1', [first.id])
		expect(marks.rows).toEqual([{ created: true }])
		expect(await errorOf(as(db, session.creator, (tx) => tx.query('select public.approve_dare($1)', [first.id])))).toBe('error-dare-not-held')

		await as(db, session.creator, (tx) => tx.query('select public.reject_dare($1, $2)', [second.id, key()]))
		expect(await statusOf(db, second.id)).toBe('removed')
		expect(await balance(db, viewer)).toBe(900)
		expect(await pageDares(db, null, session.id)).toEqual([first.id])
		expect(await ledgerProblems(db)).toEqual([])
	})

	test('hiding a shown dare removes it from every reader but operators and refunds every booster', async () => {
		const db = getDb()
		const { session, viewer, other } = await setUp(db)
		const shown = await dare(db, viewer, session.id, 'Sing the chorus backwards', 100)
		await boost(db, other, shown.id, 300)
		expect(await errorOf(as(db, other, (tx) => tx.query('select public.hide_dare($1)', [shown.id])))).toBe('error-not-session-creator')
		await as(db, session.creator, (tx) => tx.query('select public.hide_dare($1)', [shown.id]))
		expect([await balance(db, viewer), await balance(db, other)]).toEqual([1000, 1000])
		for (const reader of [null, viewer, session.creator]) expect(await pageDares(db, reader, session.id)).toEqual([])
		expect(await pageDares(db, await operator(db), session.id)).toEqual([])
		expect(await as(db, await operator(db), async (tx) => (await tx.query('select id from public.dares where id = $1', [shown.id])).rows)).toHaveLength(1)
		expect(await errorOf(as(db, session.creator, (tx) => tx.query('select public.hide_dare($1)', [shown.id])))).toBe('error-dare-not-found')
		expect(await ledgerProblems(db)).toEqual([])
	})

	test('a ban removes and refunds the viewer\u2019s running dares, gives back their boosts on others, and refuses them until lifted', async () => {
		const db = getDb()
		const { session, viewer, other } = await setUp(db)
		const stranger = await participant(db)
		const theirs = await dare(db, viewer, session.id, 'Sing the chorus backwards', 100)
		const others = await dare(db, other, session.id, 'Do ten push-ups', 100)
		await boost(db, viewer, others.id, 200)
		await boost(db, other, theirs.id, 50)
		expect([await balance(db, viewer), await balance(db, other)]).toEqual([700, 850])

		expect(await errorOf(as(db, session.creator, (tx) => tx.query('select public.ban_viewer($1)', [session.creator])))).toBe('error-ban-self')
		expect(await errorOf(as(db, session.creator, (tx) => tx.query('select public.ban_viewer($1)', [stranger])))).toBe('error-ban-unknown-user')
		expect(await errorOf(as(db, other, (tx) => tx.query('select public.ban_viewer($1)', [viewer])))).toBe('error-ban-unknown-user')
		await as(db, session.creator, (tx) => tx.query('select public.ban_viewer($1)', [viewer]))
		await as(db, session.creator, (tx) => tx.query('select public.ban_viewer($1)', [viewer]))

		expect(await statusOf(db, theirs.id)).toBe('removed')
		expect([await balance(db, viewer), await balance(db, other)]).toEqual([1000, 900])
		const page = await as(db, other, async (tx) => (await tx.query<{ id: string; pot: string; boosters: number }>('select id, pot, boosters from public.session_dares($1)', [session.id])).rows)
		expect(page.map((r) => [r.id, Number(r.pot), r.boosters])).toEqual([[others.id, 100, 1]])

		expect(await errorOf(boost(db, viewer, others.id, 50))).toBe('error-banned')
		expect(await errorOf(dare(db, viewer, session.id, 'Another one'))).toBe('error-banned')
		await as(db, session.creator, (tx) => tx.query('select public.accept_dare($1)', [others.id]))
		await as(db, session.creator, (tx) => tx.query('select public.start_voting($1)', [others.id]))
		expect(await errorOf(as(db, viewer, (tx) => tx.query('select public.vote_for_dare($1, true)', [others.id])))).toBe('error-banned')
		expect(await as(db, session.creator, async (tx) => (await tx.query<{ username: string }>('select username from public.my_bans()')).rows)).toHaveLength(1)

		await as(db, session.creator, (tx) => tx.query('select public.unban_viewer($1)', [viewer]))
		expect(await errorOf(as(db, session.creator, (tx) => tx.query('select public.unban_viewer($1)', [viewer])))).toBe('error-ban-not-found')
		await as(db, viewer, (tx) => tx.query('select public.vote_for_dare($1, false)', [others.id]))
		// The dare fails (1 no): every boost not already given back goes back, once.
		await db.query(`update public.dares set voting_ends_at = now() - interval '1 second' where id = $1`, [others.id])
		await db.query('select ledger.resolve_due_dares(10)')
		expect([await balance(db, viewer), await balance(db, other)]).toEqual([1000, 1000])
		expect(await ledgerProblems(db)).toEqual([])
	})

	test('at most five dares a minute per author and session', async () => {
		const db = getDb()
		const { session } = await setUp(db)
		await db.query('update public.sessions set max_dares_per_user = 10, max_free_dares_per_user = 10 where id = $1', [session.id])
		const author = await participant(db)
		for (let i = 0; i < 5; i++) await dare(db, author, session.id, `Dare number ${i}`)
		expect(await errorOf(dare(db, author, session.id, 'Dare number 6'))).toBe('error-too-many-dares')
		await db.query(`update public.dares set created_at = created_at - interval '61 seconds' where author_id = $1`, [author])
		expect((await dare(db, author, session.id, 'Dare number 6')).status).toBe('open')
	})
})

describeEachDatabase('reports, decisions and appeals', (getDb) => {
	async function setUp(db: Database) {
		await ready(db)
		const session: Session = await liveSession(db, { min_boost: 50, max_free_dares_per_user: 5 })
		const author = await participant(db, 1000)
		const reporter = await participant(db)
		const shown = await dare(db, author, session.id, 'Sing the chorus backwards', 100)
		return { session, author, reporter, shown }
	}

	const report = (db: Database, userId: string | null, dareId: string, reason = 'harassment', details = 'Insults a viewer by name', goodFaith = true) =>
		as(db, userId, async (tx) => (await tx.query<{ report_id: string; replayed: boolean }>('select * from public.report_dare($1, $2, $3, $4, $5)', [dareId, reason, details, goodFaith, 'de'])).rows[0]!)

	const visitorReport = (db: Queryable, dareId: string, name: string | null, email: string | null) =>
		db.query<{ report_id: string; replayed: boolean }>(`select * from ledger.report_dare_as_visitor($1, 'spam', 'Link spam', true, 'en', $2, $3)`, [dareId, name, email])

	test('a report is taken once; bad reports are refused and change nothing', async () => {
		const db = getDb()
		const { session, author, reporter, shown } = await setUp(db)
		const first = await report(db, reporter, shown.id)
		expect(first.replayed).toBe(false)
		expect(await report(db, reporter, shown.id)).toEqual({ report_id: first.report_id, replayed: true })
		expect((await db.query<{ language: string }>('select language from public.profiles where id = $1', [reporter])).rows).toEqual([{ language: 'de' }])

		// Each call made only when its turn comes: a refusal nobody awaits yet is an unhandled rejection.
		const refused: Array<[() => Promise<unknown>, string]> = [
			[() => report(db, author, shown.id), 'error-report-own-dare'],
			[() => report(db, reporter, shown.id, 'boring'), 'error-invalid-report-reason'],
			[() => report(db, reporter, shown.id, 'spam', '   '), 'error-report-details-required'],
			[() => report(db, reporter, shown.id, 'spam', 'x'.repeat(1001)), 'error-report-details-too-long'],
			[() => report(db, reporter, shown.id, 'spam', 'fine', false), 'error-report-good-faith-required'],
			[() => report(db, reporter, randomUUID()), 'error-dare-not-found'],
			[() => visitorReport(db, shown.id, null, 'a@example.com'), 'error-report-name-required'],
			[() => visitorReport(db, shown.id, 'Ann', 'not-an-address'), 'error-invalid-email'],
		]
		for (const [call, code] of refused) expect(await errorOf(call())).toBe(code)
		// Visitors report through the server only; the visitors' function is closed to the API roles.
		expect(await errorOf(report(db, null, shown.id))).toBe('42501')
		expect(await errorOf(as(db, reporter, (tx) => tx.query(`select ledger.report_dare_as_visitor($1, 'spam', 'x', true, 'en', 'A', 'a@example.com')`, [shown.id])))).toBe('42501')
		expect(await errorOf(as(db, reporter, (tx) => tx.query('select * from app_private.reports')))).toBe('42501')
		expect((await visitorReport(db, shown.id, 'Ann', 'Ann@Example.com')).rows[0]!.replayed).toBe(false)
		expect((await visitorReport(db, shown.id, 'Ann', 'ann@example.com')).rows[0]!.replayed).toBe(true)

		// A held dare is not there for a stranger to report.
		const held = await dare(db, author, session.id, 'Nenn deinen Mod einen Hurensohn')
		expect(held.status).toBe('held')
		expect(await errorOf(report(db, reporter, held.id))).toBe('error-dare-not-found')
		expect((await db.query('select 1 from app_private.reports')).rows).toHaveLength(2)
	})

	test('at most five reports a minute per reporter and session', async () => {
		const db = getDb()
		const { session, reporter } = await setUp(db)
		for (let i = 0; i < 5; i++) {
			const author = await participant(db)
			const d = await dare(db, author, session.id, `Dare number ${i}`)
			await report(db, reporter, d.id)
		}
		const d = await dare(db, await participant(db), session.id, 'Dare number 6')
		expect(await errorOf(report(db, reporter, d.id))).toBe('error-too-many-reports')
	})

	test('only operators see the queue and decide; a removal refunds, suspends on request, records its reasons append-only', async () => {
		const db = getDb()
		const { session, author, reporter, shown } = await setUp(db)
		const taken = await report(db, reporter, shown.id)
		for (const user of [null, reporter, session.creator]) {
			expect(await errorOf(as(db, user, (tx) => tx.query('select * from public.moderation_queue()')))).toBe(user ? 'error-not-operator' : '42501')
		}
		expect(await errorOf(as(db, reporter, (tx) => tx.query(`select * from public.moderate('remove_dare', $1, 'hate', 'no')`, [taken.report_id])))).toBe('error-not-operator')
		const op = await operator(db)
		const queue = await as(db, op, async (tx) => (await tx.query<{ kind: string; id: string; dare_description: string }>('select kind, id, dare_description from public.moderation_queue()')).rows)
		expect(queue).toEqual([{ kind: 'report', id: taken.report_id, dare_description: 'Sing the chorus backwards' }])

		const decide = (action: string, target: string, ground = 'harassment', explanation = 'It names and insults a viewer.') =>
			as(db, op, async (tx) => (await tx.query<{ decision_id: string; subject_id: string | null; subject_email: string | null; reporter_email: string | null; reporter_language: string }>('select * from public.moderate($1, $2, $3, $4)', [action, target, ground, explanation])).rows[0]!)
		expect(await errorOf(decide('remove_dare', taken.report_id, 'harassment', ' '))).toBe('error-decision-explanation-required')
		expect(await errorOf(decide('delete_everything', taken.report_id))).toBe('error-invalid-decision')
		expect(await errorOf(decide('remove_dare', taken.report_id, 'boring'))).toBe('error-invalid-report-reason')

		const removal = await decide('remove_dare', taken.report_id)
		expect(removal.subject_id).toBe(author)
		expect(removal.subject_email).toMatch(/@test\.local$/)
		expect(removal.reporter_email).toMatch(/@test\.local$/)
		expect(removal.reporter_language).toBe('de')
		expect(await statusOf(db, shown.id)).toBe('removed')
		expect(await balance(db, author)).toBe(1000)
		expect(await errorOf(decide('dismiss_report', taken.report_id))).toBe('error-report-decided')
		expect(await as(db, op, async (tx) => (await tx.query('select * from public.moderation_queue()')).rows)).toEqual([])

		const suspension = await decide('suspend_user', author)
		expect(await errorOf(dare(db, author, session.id, 'Sing again'))).toBe('error-account-suspended')
		expect(await as(db, author, async (tx) => (await tx.query('select * from public.my_restrictions()')).rows)).toEqual([{ suspended: true, payouts_restricted: false }])

		// Append-only, for the owner too.
		expect(await errorOf(db.query(`update app_private.moderation_decisions set explanation = 'changed' where id = $1`, [removal.decision_id]))).toBe('error-append-only')
		expect(await errorOf(db.query('delete from app_private.moderation_decisions where id = $1', [removal.decision_id]))).toBe('error-append-only')

		// The affected user reads and appeals, once; nobody else can.
		const mine = await as(db, author, async (tx) => (await tx.query<{ action: string; appealable: boolean }>('select action, appealable from public.my_decision($1)', [suspension.decision_id])).rows)
		expect(mine).toEqual([{ action: 'suspend_user', appealable: true }])
		expect(await as(db, reporter, async (tx) => (await tx.query('select * from public.my_decision($1)', [suspension.decision_id])).rows)).toEqual([])
		expect(await errorOf(as(db, reporter, (tx) => tx.query(`select public.appeal_decision($1, 'Not me')`, [suspension.decision_id])))).toBe('error-appeal-not-found')
		expect(await errorOf(as(db, author, (tx) => tx.query(`select public.appeal_decision($1, '  ')`, [suspension.decision_id])))).toBe('error-appeal-statement-required')
		await as(db, author, (tx) => tx.query(`select public.appeal_decision($1, 'I did not insult anyone.')`, [suspension.decision_id]))
		expect(await errorOf(as(db, author, (tx) => tx.query(`select public.appeal_decision($1, 'Again')`, [suspension.decision_id])))).toBe('error-appeal-already-made')
		const appeals = await as(db, op, async (tx) => (await tx.query<{ decision_id: string }>('select decision_id from public.moderation_appeals_open()')).rows)
		expect(appeals).toEqual([{ decision_id: suspension.decision_id }])

		await decide('appeal_granted', suspension.decision_id, 'none', 'On review the dare was a quote, not an insult.')
		expect(await errorOf(decide('appeal_upheld', suspension.decision_id, 'none', 'Twice'))).toBe('error-appeal-decided')
		expect((await dare(db, author, session.id, 'Sing again')).status).toBe('open')
		expect(await ledgerProblems(db)).toEqual([])
	})

	test('an operator approves or removes a held dare from the queue; automated detection is recorded', async () => {
		const db = getDb()
		const { session, author } = await setUp(db)
		const op = await operator(db)
		const held = await dare(db, author, session.id, 'Nenn den Gegner ein Arschgesicht', 100)
		const other = await dare(db, author, session.id, 'Call everyone who voted no a retard', 50)
		const queue = await as(db, op, async (tx) => (await tx.query<{ kind: string; id: string; automated: boolean }>('select kind, id, automated from public.moderation_queue()')).rows)
		expect(queue).toEqual([
			{ kind: 'held', id: held.id, automated: true },
			{ kind: 'held', id: other.id, automated: true },
		])
		await as(db, op, (tx) => tx.query(`select * from public.moderate('approve_dare', $1, 'none', 'A German swear word among friends.')`, [held.id]))
		const removed = await as(db, op, async (tx) => (await tx.query<{ decision_id: string }>(`select * from public.moderate('remove_dare', $1, 'harassment', 'A slur.')`, [other.id])).rows[0]!)
		expect([await statusOf(db, held.id), await statusOf(db, other.id)]).toEqual(['open', 'removed'])
		// 1,000 less the rewards of the shown and the approved dare; the removed one's came back.
		expect(await balance(db, author)).toBe(800)
		const decision = await db.query('select automated_detection, subject_id from app_private.moderation_decisions where id = $1', [removed.decision_id])
		expect(decision.rows).toEqual([{ automated_detection: true, subject_id: author }])
		expect(await ledgerProblems(db)).toEqual([])
	})
})
