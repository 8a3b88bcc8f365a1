/**
 * npm run chaos:money -- --ops N --connections C [--users U] [--pots P] [--max-seconds S] [--fee-percent F] [--payouts] [--keep]
 *
 * Hammers the ledger on a Postgres server with random money operations from
 * C connections at once. Two kinds are mixed:
 *
 *  - the ledger's own moves: purchases (test checkout, as the buyer), raw
 *    transfers wallet -> pot and pot -> wallet, replays of used idempotency
 *    keys, and account deletions (forfeit);
 *  - the dares' loop through its public functions, called as the API roles
 *    call them (role authenticated, the user's JWT claims): create_dare (free
 *    and paid), boost_dare, accept_dare, reject_dare, start_voting,
 *    vote_for_dare, votes ended and resolved by the sweeper's call
 *    (ledger.resolve_due_dares, also from two connections at once), sessions
 *    stopped (expiry refunds) and creators and boosters deleted mid-dare;
 *  - with --payouts, creators getting paid (docs/product.md §14): payout
 *    requests as the creator (public.request_payout, replayed too), an
 *    operator's approvals and rejections (public.moderate), the provider's
 *    steps (sent, paid, failed, as the webhook and the sender call them),
 *    purchases paid through Stripe and their disputes opened and closed (won
 *    or lost), claw-backs and the debts later purchases settle.
 *
 * --fee-percent sets the platform's fee on payouts (default 0, as
 * PLATFORM_FEE_PERCENT): each payout then also moves a fee to the fee account.
 * --dares-share is the part of operations that are dare operations (default
 * 0.5). --max-seconds stops issuing operations after S seconds (the report
 * says how many ran). At the end every live session is stopped and every
 * vote resolved, and the run checks the books: ledger.check() has no row
 * (drift 0), no balance is negative, every settled dare's pot is empty, the
 * coins that left each dare (refunds, forfeits, payout, fee) equal its boosts,
 * each booster got back exactly what they put into a refunded dare, and no
 * dare was paid twice; with --payouts, no payout left or came back twice
 * and every finished one moved its coins exactly once. The script exits 1 otherwise, or on any error that is
 * not an expected refusal (an `error-...` of the rules).
 *
 * DATABASE_URL names the server (a role that may create databases): the run
 * gets a fresh database, migrated, dropped at the end unless --keep. Not part
 * of npm test.
 */
import { randomUUID } from 'node:crypto'
import { parseArgs } from 'node:util'
import pg from 'pg'
import { createDatabase } from '../app/db/database.server'
import { migrate } from '../app/db/migrate.server'

const { values } = parseArgs({
	options: {
		ops: { type: 'string', default: '10000' },
		connections: { type: 'string', default: '8' },
		users: { type: 'string', default: '500' },
		pots: { type: 'string', default: '100' },
		keep: { type: 'boolean', default: false },
		'max-seconds': { type: 'string', default: '0' },
		'dares-share': { type: 'string', default: '0.5' },
		creators: { type: 'string', default: '20' },
		// The platform's fee on payouts (PLATFORM_FEE_PERCENT), in percent: a
		// fee adds a second transfer, to a shared system account, to every payout.
		'fee-percent': { type: 'string', default: '0' },
		// Mix payouts and disputes in (--payouts-share of the operations, default 0.25).
		payouts: { type: 'boolean', default: false },
		'payouts-share': { type: 'string', default: '0.25' },
	},
})
const OPS = Number(values.ops)
const CONNECTIONS = Number(values.connections)
const USERS = Number(values.users)
const POTS = Number(values.pots)
const MAX_SECONDS = Number(values['max-seconds'])
const DARES_SHARE = Number(values['dares-share'])
const CREATORS = Number(values.creators)
const FEE_BASIS_POINTS = Math.round(Number(values['fee-percent']) * 100)
const PAYOUTS_SHARE = values.payouts ? Number(values['payouts-share']) : 0

const adminUrl = process.env.DATABASE_URL
if (!adminUrl) {
	console.error('chaos:money needs DATABASE_URL (a Postgres server; the run creates its own database there)')
	process.exit(2)
}

type LedgerOp = 'purchase' | 'boost' | 'refund' | 'replay' | 'delete'
type DareOp =
	| 'create_dare'
	| 'boost_dare'
	| 'accept_dare'
	| 'reject_dare'
	| 'start_voting'
	| 'vote_for_dare'
	| 'end_vote'
	| 'stop_session'
	| 'delete_creator'
	| 'replay_dare_call'
type PayoutOp = 'request_payout' | 'replay_payout' | 'decide_payout' | 'send_payout' | 'stripe_purchase' | 'open_dispute' | 'close_dispute'
type Op = LedgerOp | DareOp | PayoutOp

/** The dares' world as the workers see it (JavaScript is single-threaded: no lock needed). */
interface Creator {
	id: string
	session: string
}
interface Dare {
	id: string
	session: string
	creator: string
}
const creators: Creator[] = []
const dares: Dare[] = []
/** Every dare ever created, for the final checks (a deleted creator's dares are gone from public.dares). */
const allDares = new Set<string>()
/** Calls of the dare functions that moved coins, with their keys, to send again. */
const dareCalls: Array<{ user: string; sql: string; params: unknown[] }> = []

interface Used {
	sql: string
}

const counts: Record<string, number> = {}
const count = (key: string) => void (counts[key] = (counts[key] ?? 0) + 1)

function pick<T>(items: readonly T[]): T {
	return items[Math.floor(Math.random() * items.length)]!
}

function chooseOp(): Op {
	if (Math.random() < PAYOUTS_SHARE) return choosePayoutOp()
	if (Math.random() < DARES_SHARE) return chooseDareOp()
	const r = Math.random()
	if (r < 0.3) return 'purchase'
	if (r < 0.65) return 'boost'
	if (r < 0.88) return 'refund'
	if (r < 0.998) return 'replay'
	return 'delete'
}

function chooseDareOp(): DareOp {
	const r = Math.random()
	if (r < 0.2) return 'create_dare'
	if (r < 0.55) return 'boost_dare'
	if (r < 0.65) return 'accept_dare'
	if (r < 0.69) return 'reject_dare'
	if (r < 0.76) return 'start_voting'
	if (r < 0.86) return 'vote_for_dare'
	if (r < 0.93) return 'end_vote'
	if (r < 0.97) return 'replay_dare_call'
	if (r < 0.995) return 'stop_session'
	return 'delete_creator'
}

function choosePayoutOp(): PayoutOp {
	const r = Math.random()
	if (r < 0.3) return 'request_payout'
	if (r < 0.38) return 'replay_payout'
	if (r < 0.53) return 'decide_payout'
	if (r < 0.73) return 'send_payout'
	if (r < 0.86) return 'stripe_purchase'
	if (r < 0.94) return 'open_dispute'
	return 'close_dispute'
}

/** Payments that went through "Stripe" (a payment intent each) and disputes opened on them, to dispute and close. */
const paymentIntents: string[] = []
const openDisputes: string[] = []
const payoutCalls: Array<{ user: string; params: unknown[] }> = []
let operatorId = ''

/** Recent dares are the busy ones: operations aim at the last 200 (hot rows on purpose). */
function pickDare(): Dare | undefined {
	if (dares.length === 0) return undefined
	const recent = Math.min(dares.length, 200)
	return dares[dares.length - 1 - Math.floor(Math.random() * recent)]
}

async function main(): Promise<void> {
	const name = `chaos_money_${Date.now()}`
	const admin = new pg.Client({ connectionString: adminUrl })
	await admin.connect()
	await admin.query(`create database ${name}`)
	const url = new URL(adminUrl!)
	url.pathname = `/${name}`
	const db = await createDatabase({ url: url.toString(), poolSize: 2 })
	const users: string[] = []
	const pots: string[] = Array.from({ length: POTS }, () => randomUUID())
	const used: Used[] = []
	let failed = false
	try {
		await migrate(db, { platform: 'local' })
		await db.query('select ledger.set_platform_fee($1)', [FEE_BASIS_POINTS])
		// Taking part in dares needs the current terms accepted (newUser does).
		await db.query(`insert into public.published_documents (kind, version) values ('terms_of_service', 'chaos') on conflict do nothing`)
		for (let i = 0; i < USERS; i++) users.push(await newUser(db))
		for (let i = 0; i < CREATORS; i++) creators.push(await newCreator(db))
		if (PAYOUTS_SHARE > 0) {
			// No hold, a low minimum and review threshold: requests, reviews and refusals all happen often.
			await db.query(`select ledger.set_payout_settings(0, 100, 1500, 0.7, $1, 'EUR')`, [FEE_BASIS_POINTS])
			for (const id of [...users, ...creators.map((c) => c.id)]) await payoutAccount(db, id)
			operatorId = await newUser(db)
			await db.query('insert into app_private.operators (user_id) values ($1)', [operatorId])
		}
		console.log(
			`chaos:money: ${OPS} operations (${Math.round(PAYOUTS_SHARE * 100)} % payouts, then ${Math.round(DARES_SHARE * 100)} % dares, fee ${FEE_BASIS_POINTS / 100} %), ${CONNECTIONS} connections, ${USERS} users, ${CREATORS} creators, ${POTS} raw pots, database ${name}`,
		)

		let next = 0
		let done = 0
		const started = Date.now()
		let lastReport = started
		const worker = async () => {
			const client = new pg.Client({ connectionString: url.toString() })
			await client.connect()
			try {
				while (next < OPS && !(MAX_SECONDS > 0 && Date.now() - started > MAX_SECONDS * 1000)) {
					next++
					await runOp(client, chooseOp(), users, pots, used)
					done++
					if (Date.now() - lastReport > 30_000) {
						lastReport = Date.now()
						console.log(`  ${done} operations, ${((Date.now() - started) / 1000).toFixed(0)} s`)
					}
				}
			} finally {
				await client.end()
			}
		}
		await Promise.all(Array.from({ length: CONNECTIONS }, worker))
		const seconds = (Date.now() - started) / 1000

		// Settle everything: stop every live session (open and accepted dares
		// expire and are refunded) and end and resolve every vote.
		const settler = new pg.Client({ connectionString: url.toString() })
		await settler.connect()
		try {
			// Every live session, whoever the workers last thought was live.
			const live = await settler.query<{ creator_id: string }>(`select creator_id from public.sessions where status = 'active'`)
			for (const c of live.rows.map((r) => ({ id: r.creator_id }))) {
				await asUserOn(settler, c.id, 'select 1 from public.stop_active_session()', []).catch((error: unknown) => {
					const message = error instanceof Error ? error.message : String(error)
					if (message !== 'error-no-active-session') count(`unexpected settle stop: ${message}`)
				})
			}
			await settler.query(`update public.dares set voting_ends_at = now() - interval '1 second' where status = 'voting'`)
			while ((await settler.query<{ n: number }>('select ledger.resolve_due_dares(1000) as n')).rows[0]!.n > 0);
		} finally {
			await settler.end()
		}
		const dareProblems = await checkDares(db)
		if (PAYOUTS_SHARE > 0) dareProblems.problems.push(...(await checkPayouts(db)))

		const problems = await db.query('select * from ledger.check()')
		const negatives = await db.query<{ n: number }>(
			`select ((select count(*) from public.wallets where balance < 0)
			       + (select count(*) from ledger.accounts where kind <> 'world' and balance < 0))::int as n`,
		)
		const totals = await db.query<{ transfers: number; world: number }>(
			`select (select count(*) from ledger.transfers)::int as transfers,
			        (select balance from ledger.accounts where kind = 'world') as world`,
		)
		const drift = problems.rows.length
		const negative = negatives.rows[0]!.n
		console.log(`operations: ${done}${done < OPS ? ` (stopped by --max-seconds before ${OPS})` : ''}`)
		console.log(`seconds: ${seconds.toFixed(1)} (${Math.round(done / seconds)} per second)`)
		console.log(`transfers recorded: ${totals.rows[0]!.transfers}; coins bought from the outside world: ${-totals.rows[0]!.world}`)
		console.log(`outcomes: ${JSON.stringify(counts)}`)
		console.log(`drift: ${drift}`)
		console.log(`negative balances: ${negative}`)
		console.log(`dares: ${dareProblems.summary}`)
		console.log(`dare problems: ${dareProblems.problems.length}`)
		for (const row of problems.rows) console.log(`  DRIFT ${JSON.stringify(row)}`)
		for (const line of dareProblems.problems.slice(0, 20)) console.log(`  DARE ${line}`)
		const unexpected = Object.entries(counts).filter(([k]) => k.startsWith('unexpected'))
		failed = drift !== 0 || negative !== 0 || unexpected.length > 0 || dareProblems.problems.length > 0
	} finally {
		await db.close()
		if (!values.keep) await admin.query(`drop database if exists ${name} with (force)`)
		await admin.end()
	}
	process.exitCode = failed ? 1 : 0
}

type Db = { query: (sql: string, params?: unknown[]) => Promise<{ rows: unknown[] }> }

async function payoutAccount(db: Db, user: string): Promise<void> {
	await db.query(`select ledger.save_payout_account($1, 'test', $2, 'DE', 'ready', '{}', null)`, [user, `test_${user}`])
}

/**
 * The payouts' books, one line per problem: each payout moved its coins out
 * of the wallet once; a paid one left once (less its fee) and came back
 * never; a failed or rejected one came back once and never left; one under
 * way did neither; no dispute took back more than it was worth.
 */
async function checkPayouts(db: Db): Promise<string[]> {
	const { rows } = (await db.query(
		// One pass over the transfers (a payout's are the ones that name it), then one row per payout.
		`with moved as (
		   select t.reference,
		     sum(t.amount) filter (where t.kind = 'payout_request') as requested,
		     sum(t.amount) filter (where t.kind in ('payout_paid', 'payout_fee')) as left_,
		     sum(t.amount) filter (where t.kind in ('payout_return', 'forfeit')) as returned
		   from ledger.transfers t
		   where t.kind in ('payout_request', 'payout_paid', 'payout_fee', 'payout_return', 'forfeit')
		   group by t.reference
		 )
		 select p.id, p.status, p.coins, coalesce(m.requested, 0) as requested, coalesce(m.left_, 0) as left_, coalesce(m.returned, 0) as returned
		 from ledger.payouts p left join moved m on m.reference = p.id::text`,
	)) as { rows: Array<{ id: string; status: string; coins: string; requested: string; left_: string; returned: string }> }
	const problems: string[] = []
	const byStatus: Record<string, number> = {}
	for (const r of rows) {
		byStatus[r.status] = (byStatus[r.status] ?? 0) + 1
		const [coins, requested, left, returned] = [r.coins, r.requested, r.left_, r.returned].map(Number) as [number, number, number, number]
		if (requested !== coins) problems.push(`payout ${r.id}: requested ${requested}, is ${coins}`)
		const expected = r.status === 'paid' ? [coins, 0] : r.status === 'failed' || r.status === 'rejected' ? [0, coins] : [0, 0]
		if (left !== expected[0] || returned !== expected[1]) problems.push(`payout ${r.id} (${r.status}): left ${left}, returned ${returned}`)
	}
	const disputes = (await db.query(
		`select d.id, d.coins, d.status,
		   (select coalesce(sum(t.amount), 0) from ledger.transfers t where t.reference = d.id and t.kind in ('clawback', 'debt_settlement')) as taken,
		   (select coalesce(sum(t.amount), 0) from ledger.transfers t where t.reference = d.id and t.kind = 'clawback_return') as restored
		 from ledger.disputes d`,
	)) as { rows: Array<{ id: string; coins: string; status: string; taken: string; restored: string }> }
	for (const d of disputes.rows) {
		byStatus[`dispute ${d.status}`] = (byStatus[`dispute ${d.status}`] ?? 0) + 1
		if (Number(d.taken) > Number(d.coins)) problems.push(`dispute ${d.id}: took ${d.taken} of ${d.coins}`)
		if (d.status === 'won' && Number(d.restored) > Number(d.taken)) problems.push(`dispute ${d.id}: restored ${d.restored}, took ${d.taken}`)
	}
	console.log(`payouts: ${JSON.stringify(byStatus)}`)
	return problems
}

/** The SQL that creates a user who may take part (username, current terms); its wallet comes from the trigger. */
function newUserSql(id: string): string {
	return `insert into auth.users (id, aud, role, email) values ('${id}', 'authenticated', 'authenticated', '${id}@chaos.local');
		insert into public.profiles (id, username) values ('${id}', 'u${id.replaceAll('-', '').slice(0, 29)}');
		insert into public.consents (user_id, kind, version) values ('${id}', 'terms_of_service', 'chaos');`
}

async function newUser(db: Db): Promise<string> {
	const id = randomUUID()
	for (const statement of newUserSql(id).split(';').filter((s) => s.trim())) await db.query(statement)
	return id
}

/** A creator with a live session (written as the operator would: the session rules are not what this run tests). */
async function newCreator(db: Db): Promise<Creator> {
	const id = await newUser(db)
	return { id, session: await newSession(db, id) }
}

async function newSession(db: Db, creator: string): Promise<string> {
	// Some sessions allow few dares per user, so the limits are met too.
	const few = Math.random() < 0.3
	const { rows } = await db.query(
		`insert into public.sessions (creator_id, title, platform, channel, min_boost, max_dares_per_user, max_free_dares_per_user, voting_duration)
		 values ($1, 'Chaos', 'twitch', $2, $3, $4, $5, 30) returning id`,
		[creator, `c_${creator.slice(0, 8)}_${randomUUID().slice(0, 8)}`, few ? 50 : 100, few ? 3 : 100, few ? 1 : 5],
	)
	return (rows[0] as { id: string }).id
}

/** One statement as the user, the way the Data API runs it: its own transaction, role authenticated, the user's claims. */
async function asUserOn<T extends pg.QueryResultRow>(client: pg.Client, user: string, sql: string, params: unknown[]): Promise<pg.QueryResult<T>> {
	await client.query('begin')
	try {
		await client.query(`select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)`, [
			JSON.stringify({ sub: user, role: 'authenticated' }),
		])
		const result = await client.query<T>(sql, params)
		await client.query('commit')
		return result
	} catch (error) {
		await client.query('rollback').catch(() => {})
		throw error
	}
}

/**
 * The dares' books after everything was settled, one line per problem:
 * every dare this run created is settled (or gone with its creator) and its
 * pot is empty; for each dare still listed, what left the pot equals what its
 * boosts put in, a refunded dare gave each booster back exactly their boosts
 * (or sent them to the forfeit account), and a completed one paid once.
 */
async function checkDares(db: Db): Promise<{ summary: string; problems: string[] }> {
	const ids = [...allDares]
	const { rows } = (await db.query(
		`with d as (select unnest($1::uuid[]) as id)
		 select d.id, x.status,
		   coalesce(a.balance, 0) as pot,
		   (select coalesce(sum(b.amount), 0) from public.boosts b where b.dare_id = d.id) as boosted,
		   (select coalesce(sum(t.amount), 0) from ledger.transfers t where t.to_account = a.id) as pot_in,
		   (select coalesce(sum(t.amount), 0) from ledger.transfers t where t.from_account = a.id) as pot_out,
		   (select count(*) from ledger.transfers t where t.from_account = a.id and t.kind = 'payout') as payouts,
		   (select count(*) from (
		      select b.booster_id, sum(b.amount) as owed from public.boosts b where b.dare_id = d.id group by b.booster_id
		    ) o
		    where o.owed <> coalesce((
		      select sum(t.amount) from ledger.transfers t
		      where t.from_account = a.id and t.kind in ('refund', 'forfeit')
		        and t.idempotency_key = 'refund:' || d.id::text || ':' || o.booster_id::text), 0)
		   ) as wrong_refunds
		 from d
		 left join public.dares x on x.id = d.id
		 left join ledger.accounts a on a.kind = 'pot' and a.dare_id = d.id`,
		[ids],
	)) as { rows: Array<{ id: string; status: string | null; pot: number; boosted: string; pot_in: string; pot_out: string; payouts: string; wrong_refunds: string }> }
	const problems: string[] = []
	const byStatus: Record<string, number> = {}
	for (const r of rows) {
		const status = r.status ?? 'deleted with its creator'
		byStatus[status] = (byStatus[status] ?? 0) + 1
		if (Number(r.pot) !== 0) problems.push(`${r.id} (${status}): pot ${r.pot} after settling`)
		if (r.status === null) continue
		if (!['completed', 'failed', 'rejected', 'expired'].includes(r.status)) problems.push(`${r.id}: still ${r.status} after settling`)
		if (Number(r.pot_in) !== Number(r.boosted)) problems.push(`${r.id}: pot received ${r.pot_in}, boosts say ${r.boosted}`)
		if (Number(r.pot_out) !== Number(r.boosted)) problems.push(`${r.id} (${r.status}): ${r.pot_out} left the pot, boosts say ${r.boosted}`)
		if (r.status === 'completed' && Number(r.boosted) > 0 && Number(r.payouts) > 1) problems.push(`${r.id}: paid ${r.payouts} times`)
		if (r.status !== 'completed' && Number(r.payouts) > 0) problems.push(`${r.id} (${r.status}): paid out`)
		if (r.status !== 'completed' && Number(r.wrong_refunds) > 0) problems.push(`${r.id} (${r.status}): ${r.wrong_refunds} boosters not refunded exactly`)
	}
	return { summary: JSON.stringify(byStatus), problems }
}

async function runOp(client: pg.Client, op: Op, users: string[], pots: string[], used: Used[]): Promise<void> {
	if (PAYOUT_OPS.has(op)) return runPayoutOp(client, op as PayoutOp, users)
	if (op !== 'purchase' && op !== 'boost' && op !== 'refund' && op !== 'replay' && op !== 'delete') {
		return runDareOp(client, op as DareOp, users)
	}
	const key = randomUUID()
	let sql: string
	switch (op) {
		case 'purchase': {
			const user = pick(users)
			const claims = JSON.stringify({ sub: user, role: 'authenticated' })
			const coins = pick([500, 1100, 2400, 6500])
			sql = `begin;
				select set_config('request.jwt.claims', '${claims}', true);
				select ledger.complete_purchase((ledger.create_purchase('coins-${coins}', ${coins}, 499, 'EUR', 'test', '${key}')).id);
				commit;`
			break
		}
		case 'boost': {
			const amount = 10 * (1 + Math.floor(Math.random() * 50))
			sql = `select * from ledger.transfer(ledger.wallet_account('${pick(users)}'), ledger.pot_account('${pick(pots)}'), ${amount}, 'boost', null, '${key}')`
			break
		}
		case 'refund': {
			const pot = pick(pots)
			const amount = 10 * (1 + Math.floor(Math.random() * 40))
			sql = `select * from ledger.transfer(ledger.pot_account('${pot}'), ledger.wallet_account('${pick(users)}'), ${amount}, '${Math.random() < 0.5 ? 'refund' : 'payout'}', null, '${key}')`
			break
		}
		case 'replay': {
			const earlier = used.length > 0 ? pick(used) : null
			if (!earlier) return runOp(client, 'boost', users, pots, used)
			sql = earlier.sql
			break
		}
		case 'delete': {
			const index = Math.floor(Math.random() * users.length)
			const victim = users[index]!
			const replacement = randomUUID()
			users[index] = replacement
			sql = `begin;
				delete from auth.users where id = '${victim}';
				${newUserSql(replacement)}
				commit;`
			break
		}
	}
	try {
		await client.query(sql)
		count(op)
		if (op !== 'replay' && op !== 'delete' && used.length < 5000) used.push({ sql })
		else if (op !== 'replay' && op !== 'delete' && Math.random() < 0.05) used[Math.floor(Math.random() * used.length)] = { sql }
	} catch (error) {
		await client.query('rollback').catch(() => {})
		const message = error instanceof Error ? error.message : String(error)
		// Expected refusals: not enough coins in a wallet or a pot; a purchase
		// or transfer replayed for a wallet deleted in between; a disputed buyer's spending.
		if (message === 'error-insufficient-funds') count(`${op}: insufficient funds`)
		else if (message === 'error-wallet-not-found') count(`${op}: wallet deleted`)
		// A buyer whose purchase is disputed may not spend (with --payouts).
		else if (message === 'error-spending-restricted') count(`${op}: spending restricted`)
		else {
			count(`unexpected ${op}: ${message}`)
			if ((counts[`unexpected ${op}: ${message}`] ?? 0) <= 3) console.error(`unexpected ${op}: ${message}\n${sql}`)
		}
	}
}

const PAYOUT_OPS = new Set<Op>(['request_payout', 'replay_payout', 'decide_payout', 'send_payout', 'stripe_purchase', 'open_dispute', 'close_dispute'])

/** Anyone who may have earnings: the users (the raw ledger's 'payout' moves) and the creators (completed dares). */
const earner = (users: string[]) => (Math.random() < 0.5 ? pick(creators).id : pick(users))

async function runPayoutOp(client: pg.Client, op: PayoutOp, users: string[]): Promise<void> {
	try {
		switch (op) {
			case 'request_payout':
			case 'replay_payout': {
				const earlier = op === 'replay_payout' && payoutCalls.length > 0 ? pick(payoutCalls) : null
				const call = earlier ?? { user: earner(users), params: [100 * (1 + Math.floor(Math.random() * 25)), randomUUID()] }
				await asUserOn(client, call.user, 'select id from public.request_payout($1, $2)', call.params)
				if (!earlier && payoutCalls.length < 5000) payoutCalls.push(call)
				break
			}
			case 'decide_payout': {
				// Sometimes two operators' clicks on the same payout.
				const { rows } = await client.query<{ id: string }>(`select id from ledger.payouts where status = 'review' order by random() limit 1`)
				if (!rows[0]) return count(`${op}: none waiting`)
				const action = Math.random() < 0.75 ? 'approve_payout' : 'reject_payout'
				await asUserOn(client, operatorId, `select 1 from public.moderate($1, $2, 'other', 'Chaos review')`, [action, rows[0].id])
				break
			}
			case 'send_payout': {
				const { rows } = await client.query<{ id: string; status: string }>(
					`select id, status from ledger.payouts where status in ('approved', 'sent') order by random() limit 1`,
				)
				const payout = rows[0]
				if (!payout) return count(`${op}: none to send`)
				if (payout.status === 'approved' && Math.random() < 0.5) await client.query('select ledger.mark_payout_sent($1, $2)', [payout.id, `tr_${payout.id}`])
				else if (Math.random() < 0.75) await client.query('select ledger.mark_payout_paid($1)', [payout.id])
				else await client.query('select * from ledger.mark_payout_failed($1, $2)', [payout.id, 'Chaos: the bank refused'])
				break
			}
			case 'stripe_purchase': {
				// Checkout with Stripe: the purchase as the buyer, then the webhook's completion with its payment.
				const user = pick(users)
				const coins = pick([500, 1100, 2400])
				const intent = `pi_${randomUUID().replaceAll('-', '')}`
				// As the shop's server does it: the owner connection with the buyer's claims.
				const session = `cs_${randomUUID().replaceAll('-', '')}`
				await client.query('begin')
				await client.query(`select set_config('request.jwt.claims', $1, true)`, [JSON.stringify({ sub: user, role: 'authenticated' })])
				const { rows } = await client.query<{ id: string }>(`select id from ledger.create_purchase($1, $2, $3, 'EUR', 'stripe', $4)`, [`coins-${coins}`, coins, coins, randomUUID()])
				await client.query('select ledger.set_checkout_session($1, $2)', [rows[0]!.id, session])
				await client.query('commit')
				await client.query('select * from ledger.complete_checkout_session($1, $2)', [session, intent])
				if (paymentIntents.length < 5000) paymentIntents.push(intent)
				break
			}
			case 'open_dispute': {
				if (paymentIntents.length === 0) return runPayoutOp(client, 'stripe_purchase', users)
				const intent = pick(paymentIntents)
				const id = `dp_${intent.slice(3, 19)}_${Math.random() < 0.2 ? 'b' : 'a'}`
				await client.query('select * from ledger.open_dispute($1, $2, $3)', [id, intent, Math.random() < 0.3 ? 250 : 100000])
				if (openDisputes.length < 5000) openDisputes.push(id)
				break
			}
			case 'close_dispute': {
				if (openDisputes.length === 0) return count(`${op}: none open`)
				const index = Math.floor(Math.random() * openDisputes.length)
				const id = openDisputes[index]!
				if (Math.random() < 0.8) openDisputes.splice(index, 1)
				await client.query('select * from ledger.close_dispute($1, $2)', [id, Math.random() < 0.5])
				break
			}
		}
		count(op)
	} catch (error) {
		await client.query('rollback').catch(() => {})
		const message = error instanceof Error ? error.message : String(error)
		if (refusal(message) || message === 'error-idempotency-key-reused') count(`${op}: ${message}`)
		else {
			count(`unexpected ${op}: ${message}`)
			if ((counts[`unexpected ${op}: ${message}`] ?? 0) <= 3) console.error(`unexpected ${op}: ${message}`)
		}
	}
}

/** The refusals the rules give; anything else (a deadlock, a raw constraint error, a crash) is unexpected. */
function refusal(message: string): boolean {
	return /^error-[a-z0-9-]+$/.test(message) && message !== 'error-ledger-unbalanced' && message !== 'error-idempotency-key-reused'
}

async function runDareOp(client: pg.Client, op: DareOp, users: string[]): Promise<void> {
	let user: string
	let sql: string
	let params: unknown[]
	let moves = false
	const dare = pickDare()
	switch (op) {
		case 'create_dare': {
			const creator = pick(creators)
			user = pick(users)
			const r = Math.random()
			const reward = r < 0.25 ? 0 : r < 0.5 ? 100 : 10 * (10 + Math.floor(Math.random() * 40))
			sql = 'select id from public.create_dare($1, $2, $3, $4)'
			params = [`Chaos dare ${randomUUID().slice(0, 8)}`, creator.session, reward, randomUUID()]
			moves = true
			break
		}
		case 'boost_dare':
			if (!dare) return runDareOp(client, 'create_dare', users)
			user = pick(users)
			sql = 'select 1 from public.boost_dare($1, $2, $3)'
			params = [dare.id, 10 * (1 + Math.floor(Math.random() * 30)), randomUUID()]
			moves = true
			break
		case 'accept_dare':
		case 'reject_dare':
		case 'start_voting':
			if (!dare) return runDareOp(client, 'create_dare', users)
			// Now and then someone who is not the creator tries.
			user = Math.random() < 0.05 ? pick(users) : dare.creator
			sql = `select 1 from public.${op}($1)`
			params = [dare.id]
			break
		case 'vote_for_dare':
			if (!dare) return runDareOp(client, 'create_dare', users)
			user = pick(users)
			sql = 'select 1 from public.vote_for_dare($1, $2)'
			params = [dare.id, Math.random() < 0.5]
			break
		case 'end_vote': {
			// The deadline passes (a row's value), and the sweeper's call runs,
			// sometimes twice at once as two server instances would.
			try {
				await client.query(
					`update public.dares set voting_ends_at = now() - interval '1 millisecond'
					 where id = (select id from public.dares where status = 'voting' order by random() limit 1)`,
				)
				while ((await client.query<{ n: number }>('select ledger.resolve_due_dares(1) as n')).rows[0]!.n > 0);
				count(op)
			} catch (error) {
				count(`unexpected ${op}: ${error instanceof Error ? error.message : String(error)}`)
			}
			return
		}
		case 'stop_session': {
			const creator = pick(creators)
			try {
				await asUserOn(client, creator.id, 'select 1 from public.stop_active_session()', [])
				count(op)
				// Live again, unless another worker deleted this creator meanwhile.
				if (creators.includes(creator)) {
					creator.session = await newSession(client as unknown as Db, creator.id).catch(() => creator.session)
				}
			} catch (error) {
				const message = error instanceof Error ? error.message : String(error)
				count(refusal(message) ? `${op}: ${message}` : `unexpected ${op}: ${message}`)
			}
			return
		}
		case 'delete_creator': {
			// A creator deletes their account mid-session: open and accepted dares
			// expire, a running vote is refunded, the dares go with the session.
			const index = Math.floor(Math.random() * creators.length)
			const victim = creators[index]!
			const replacement = randomUUID()
			try {
				await client.query(`begin;
					delete from auth.users where id = '${victim.id}';
					${newUserSql(replacement)}
					commit;`)
				creators[index] = { id: replacement, session: await newSession(client as unknown as Db, replacement) }
				for (let i = dares.length - 1; i >= 0; i--) if (dares[i]!.creator === victim.id) dares.splice(i, 1)
				count(op)
			} catch (error) {
				await client.query('rollback').catch(() => {})
				count(`unexpected ${op}: ${error instanceof Error ? error.message : String(error)}`)
			}
			return
		}
		case 'replay_dare_call': {
			const earlier = dareCalls.length > 0 ? pick(dareCalls) : null
			if (!earlier) return runDareOp(client, 'boost_dare', users)
			;({ user, sql, params } = earlier)
			break
		}
	}
	try {
		const result = await asUserOn<{ id?: string }>(client, user, sql, params)
		count(op)
		if (op === 'create_dare') {
			const id = result.rows[0]!.id!
			const creator = creators.find((c) => c.session === params[1])
			if (creator && !allDares.has(id)) dares.push({ id, session: creator.session, creator: creator.id })
			allDares.add(id)
		}
		if (moves) {
			if (dareCalls.length < 5000) dareCalls.push({ user, sql, params })
			else if (Math.random() < 0.05) dareCalls[Math.floor(Math.random() * dareCalls.length)] = { user, sql, params }
		}
	} catch (error) {
		const message = error instanceof Error ? error.message : String(error)
		if (refusal(message)) count(`${op}: ${message}`)
		else {
			count(`unexpected ${op}: ${message}`)
			if ((counts[`unexpected ${op}: ${message}`] ?? 0) <= 3) console.error(`unexpected ${op}: ${message}\n${sql} ${JSON.stringify(params)}`)
		}
	}
}

main().catch((error: unknown) => {
	console.error(`chaos:money failed: ${error instanceof Error ? error.stack : String(error)}`)
	process.exitCode = 2
})
