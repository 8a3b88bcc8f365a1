import type { Route } from './+types/channel'
import { SessionView } from '#app/components/session-view'
import { getChannelSession, isPlatform } from '#app/modules/sessions/service.server'
import { queryAsViewer } from '#app/utils/db.server'
import { invalidRoute, notFound } from '#app/utils/http'

/**
 * /{lang}/{platform}/{channel}: the channel's active session, else its last
 * one with a "not live" notice, else 404. The platform is the route's
 * validity check (spec section 2): anything but twitch, youtube or kick is
 * 'Page Not Found'.
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
	const { platform, channel } = params
	if (!isPlatform(platform)) invalidRoute(request)
	const session = await queryAsViewer(context, (tx) => getChannelSession(tx, platform, channel))
	if (!session) notFound(request)
	return { session }
}

export default function ChannelPage({ loaderData }: Route.ComponentProps) {
	const { session } = loaderData
	return <SessionView session={session} notLive={session.status !== 'active'} />
}
