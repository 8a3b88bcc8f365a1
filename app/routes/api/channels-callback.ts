import { finishChannelConnect } from '#app/modules/channels/connect.server'
import type { Route } from './+types/channels-callback'

/** GET /api/channels/callback/{youtube|kick}: where YouTube's and Kick's consent pages send the creator back (ADR 037). */
export function loader({ request, context, params }: Route.LoaderArgs) {
	return finishChannelConnect(request, context, params.platform)
}
