import type { Route } from './+types/channel'
import type { Locale } from '#app/i18n/locales'
import { revalidateUnlessAnswered } from '#app/modules/dares/answer'
import { loadSessionPage, sessionPageAction } from '#app/modules/sessions/page.server'
import { isPlatform } from '#app/modules/sessions/schemas'
import { SessionPage } from '#app/modules/sessions/session-page'
import sessionsStylesHref from '#app/styles/sessions.css?url'
import type { StylesheetsHandle } from '#app/styles/stylesheets'
import { invalidRoute, notFound } from '#app/utils/http'

/** Not after a dare form the page's script sent: its answer and the live updates carry what changed. */
export const shouldRevalidate = revalidateUnlessAnswered

export const handle: StylesheetsHandle = { stylesheets: [sessionsStylesHref] }

/**
 * /{lang}/{platform}/{channel}: the channel's active session, else its last
 * one with a "not live" notice and the creator's other sessions, else 404.
 * The platform is the route's validity check (docs/product.md §3.3): anything but
 * twitch, youtube or kick is 'Page Not Found'.
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
	const { platform, channel } = params
	if (!isPlatform(platform)) invalidRoute(request)
	const page = await loadSessionPage(request, context, { platform, channel })
	if (!page) notFound(request)
	return page
}

export async function action({ request, context }: Route.ActionArgs) {
	return sessionPageAction(request, context)
}

export default function ChannelRoute({ loaderData, params }: Route.ComponentProps) {
	// Another session is another page (its live feed starts again).
	return <SessionPage key={loaderData.session.id} {...loaderData} lang={params.lang as Locale} notLive={loaderData.session.status !== 'active'} />
}
