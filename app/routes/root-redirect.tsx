import { redirect } from 'react-router'
import type { Route } from './+types/root-redirect'
import { servicesContext } from '#app/context.server'
import { detectLocale } from '#app/i18n/detect.server'

/** `/` is home in the visitor's language: cookie, browser languages, domain, then English. */
export function loader({ request, context }: Route.LoaderArgs) {
	const { env } = context.get(servicesContext)
	const locale = detectLocale(request, env.LOCALE_DOMAINS)
	const { search } = new URL(request.url)
	return redirect(`/${locale}${search}`, {
		headers: { Vary: 'Cookie, Accept-Language', 'Cache-Control': 'private, no-cache' },
	})
}
