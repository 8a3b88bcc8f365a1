import { PGlite } from '@electric-sql/pglite'
import { afterAll, expect, test } from 'vitest'
import type { Queryable } from '#app/db/database.server'
import { joinAddress, readTopBoosters } from './service.server'

/**
 * The top boosters' read on a database with and without
 * public.session_top_boosters (an instance newer than its migrations): the
 * loader's transaction goes on either way. Plain PGlite, no schema: only the
 * function's shape matters here (its rules: tests/sql/overlay.test.ts).
 */
const pg = new PGlite()
afterAll(() => pg.close())
const tx: Queryable = { query: (text, params) => pg.query(text, params) as never }
const SESSION = '00000000-0000-4000-8000-000000000001'

test('without the function: nothing to show, and the transaction goes on', async () => {
	await pg.query('begin')
	expect(await readTopBoosters(tx, SESSION)).toBeNull()
	expect((await pg.query<{ ok: number }>('select 1 as ok')).rows).toEqual([{ ok: 1 }])
	await pg.query('rollback')
})

test('with it: the usernames and coins, most first, as many as asked; any other error is thrown', async () => {
	await pg.query('begin')
	await pg.exec(`
		create function public.session_top_boosters(p_session_id uuid, p_limit integer)
		returns table (username text, coins bigint) language sql as $$
			select * from (values ('lucia', 650::bigint), ('jonas', 500::bigint), (null, 400::bigint), ('emre', 300::bigint)) v
			limit p_limit
		$$;
	`)
	// A booster without a username (none yet) is not named.
	expect(await readTopBoosters(tx, SESSION, 3)).toEqual([
		{ username: 'lucia', coins: 650 },
		{ username: 'jonas', coins: 500 },
	])
	await expect(readTopBoosters(tx, 'not-a-uuid')).rejects.toMatchObject({ code: '22P02' })
	await pg.query('rollback')
})

test('where to join: the channel page in the overlay’s language, and how it reads on stream', () => {
	expect(joinAddress('https://dareboost.example', 'de', { platform: 'twitch', channel: 'mia_plays' })).toEqual({
		url: 'https://dareboost.example/de/twitch/mia_plays',
		label: 'dareboost.example/de/twitch/mia_plays',
	})
	expect(joinAddress('http://localhost:3000', 'en', { platform: 'kick', channel: 'emre.live' }).label).toBe('localhost:3000/en/kick/emre.live')
})
