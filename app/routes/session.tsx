import type { Route } from './+types/session'
import type { Locale } from '#app/i18n/locales'
import { revalidateUnlessAnswered } from '#app/modules/dares/answer'
import { loadSessionPage, sessionPageAction } from '#app/modules/sessions/page.server'
import { SessionPage } from '#app/modules/sessions/session-page'
import sessionsStylesHref from '#app/styles/sessions.css?url'
import type { StylesheetsHandle } from '#app/styles/stylesheets'
import { notFound } from '#app/utils/http'

/** Not after a dare form the page's script sent: its answer and the live updates carry what changed. */
export const shouldRevalidate = revalidateUnlessAnswered

export const handle: StylesheetsHandle = { stylesheets: [sessionsStylesHref] }

export async function loader({ params, request, context }: Route.LoaderArgs) {
	const page = await loadSessionPage(request, context, { id: params.id })
	if (!page) notFound(request)
	return page
}

export async function action({ request, context }: Route.ActionArgs) {
	return sessionPageAction(request, context)
}

export default function SessionRoute({ loaderData, params }: Route.ComponentProps) {
	// Another session is another page (its live feed starts again).
	return <SessionPage key={loaderData.session.id} {...loaderData} lang={params.lang as Locale} notLive={false} />
}
