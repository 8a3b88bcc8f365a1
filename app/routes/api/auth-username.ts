import { data } from 'react-router'
import type { Route } from './+types/auth-username'
import { queryAsViewer } from '#app/utils/db.server'

/** GET /api/auth/username?username=: is_username_available, for the 500 ms check while typing. */
export async function loader({ request, context }: Route.LoaderArgs) {
	const username = new URL(request.url).searchParams.get('username') ?? ''
	const available = await queryAsViewer(context, async (tx) => {
		const { rows } = await tx.query<{ available: boolean }>('select public.is_username_available($1) as available', [username])
		return rows[0]?.available === true
	})
	return data({ available }, { headers: { 'Cache-Control': 'no-store' } })
}
