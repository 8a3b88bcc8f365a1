import type { Route } from './+types/session'
import { SessionView } from '#app/components/session-view'
import { getSessionById } from '#app/modules/sessions/service.server'
import { queryAsViewer } from '#app/utils/db.server'
import { notFound } from '#app/utils/http'

export async function loader({ params, request, context }: Route.LoaderArgs) {
	const session = await queryAsViewer(context, (tx) => getSessionById(tx, params.id))
	if (!session) notFound(request)
	return { session }
}

export default function SessionPage({ loaderData }: Route.ComponentProps) {
	return <SessionView session={loaderData.session} notLive={false} />
}
