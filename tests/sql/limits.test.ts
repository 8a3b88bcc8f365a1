import { expect, test } from 'vitest'
import type { Queryable } from '#app/db/database.server'
import { DARE_LIMITS } from '#app/modules/dares/limits'
import { SESSION_LIMITS } from '#app/modules/sessions/schemas'
import { IDEMPOTENCY_KEY, STORED_IDEMPOTENCY_KEY } from '#app/utils/idempotency-key'
import { describeEachDatabase } from '#tests/support/databases'

/**
 * One home per limit (issue 23): the forms take their limits from
 * TypeScript (the number fields' min, max and step, the HTML constraints
 * without JavaScript), and the database checks them again in its tables and
 * functions. These tests read the database's own rules from pg_catalog and
 * hold them equal to the TypeScript constants, so neither can change alone.
 * (The functions' refusals at those bounds, with their error codes, are
 * tested in dares.test.ts and sessions.test.ts.)
 */

/** A check constraint as Postgres prints it. */
async function constraint(db: Queryable, name: string): Promise<string> {
	const { rows } = await db.query<{ def: string }>('select pg_get_constraintdef(oid) as def from pg_constraint where conname = $1', [name])
	expect(rows, name).toHaveLength(1)
	return rows[0]!.def
}

/** The bounds a check puts on `expr`: `expr >= n`, `expr <= n`, `(expr % n) = 0`. */
function bounds(def: string, expr: string) {
	const escaped = expr.replace(/[()]/g, '\\$&')
	const number = (re: string) => {
		const m = new RegExp(re).exec(def)
		return m ? Number(m[1]) : undefined
	}
	return {
		min: number(`\\(${escaped} >= (\\d+)\\)`) ?? (number(`\\(${escaped} > (\\d+)\\)`) ?? NaN) + 1,
		max: number(`\\(${escaped} <= (\\d+)\\)`),
		step: number(`\\(\\(${escaped} % \\(?(\\d+)\\)?(?:::bigint)?\\) = 0\\)`) ?? 1,
	}
}

describeEachDatabase('one home per limit', (getDb) => {
	test("the dares' table checks state the dares' form limits", async () => {
		const db = getDb()
		expect(bounds(await constraint(db, 'dares_description_valid'), 'char_length(description)')).toMatchObject(DARE_LIMITS.description)
		expect(bounds(await constraint(db, 'dares_reward_valid'), 'reward')).toEqual({
			min: DARE_LIMITS.reward.min,
			max: DARE_LIMITS.reward.max,
			step: DARE_LIMITS.reward.step,
		})
		expect(bounds(await constraint(db, 'boosts_amount_valid'), 'amount')).toEqual({
			min: DARE_LIMITS.boost.min,
			max: DARE_LIMITS.boost.max,
			step: DARE_LIMITS.boost.step,
		})
	})

	test("the sessions' table checks state the start-session form's limits", async () => {
		const db = getDb()
		const { title, minBoost, maxDaresPerUser, votingDuration } = SESSION_LIMITS
		expect(bounds(await constraint(db, 'sessions_title_length'), 'char_length(btrim(title))')).toMatchObject({ min: title.min, max: title.max })
		expect(bounds(await constraint(db, 'sessions_min_boost_valid'), 'min_boost')).toEqual({ min: minBoost.min, max: minBoost.max, step: minBoost.step })
		expect(bounds(await constraint(db, 'sessions_max_dares_per_user_valid'), 'max_dares_per_user')).toEqual({
			min: maxDaresPerUser.min,
			max: maxDaresPerUser.max,
			step: maxDaresPerUser.step,
		})
		expect(bounds(await constraint(db, 'sessions_voting_duration_valid'), 'voting_duration')).toEqual({
			min: votingDuration.min,
			max: votingDuration.max,
			step: votingDuration.step,
		})
	})

	test("every idempotency key the database checks is a client's key, or a stored one, as app/utils/idempotency-key.ts says", async () => {
		const db = getDb()
		// Every key pattern (printable characters, at least 8), in table checks and in function bodies.
		const { rows } = await db.query<{ place: string; source: string }>(
			`select 'constraint ' || conname as place, pg_get_constraintdef(oid) as source from pg_constraint
			 where contype = 'c' and pg_get_constraintdef(oid) like '%[!-~]{%'
			 union all
			 select 'function ' || n.nspname || '.' || p.proname, p.prosrc from pg_proc p join pg_namespace n on n.oid = p.pronamespace
			 where p.prosrc like '%[!-~]{%'`,
		)
		const client = `'${IDEMPOTENCY_KEY.source}'`
		const stored = `'${STORED_IDEMPOTENCY_KEY.source}'`
		const patterns = rows.flatMap((r) => [...r.source.matchAll(/'\^\[!-~\]\{8,\d+\}\$'/g)].map((m) => `${r.place}: ${m[0]}`))
		// The tables and the ledger's own transfer hold stored keys; every function a client calls checks a client's.
		const storedPlaces = new Set(['function ledger.transfer'])
		const wrong = patterns.filter((p) => {
			const [place, pattern] = p.split(': ')
			const expected = place!.startsWith('constraint ') || storedPlaces.has(place!) ? stored : client
			return pattern !== expected
		})
		expect(patterns.length).toBeGreaterThan(8)
		expect(wrong).toEqual([])
	})
})
