import { useTranslation } from '#app/i18n/translation'
import type { Route } from './+types/overlay'
import { PageTitle } from '#app/components/page-title'
import { servicesContext } from '#app/context.server'
import { qrCodePath } from '#app/modules/account/settings/two-factor.server'
import { readSessionDares } from '#app/modules/dares/service.server'
import { readCovered } from '#app/modules/realtime/broadcaster.server'
import { overlayOptions } from '#app/modules/overlay/options'
import { OverlayPage } from '#app/modules/overlay/overlay-page'
import { joinAddress, overlayKeyValid, readTopBoosters } from '#app/modules/overlay/service.server'
import { getSessionById } from '#app/modules/sessions/service.server'
import overlayStylesHref from '#app/styles/overlay.css?url'
import type { StylesheetsHandle } from '#app/styles/stylesheets'
import { queryAsViewer } from '#app/utils/db.server'
import { notFound } from '#app/utils/http'

export const handle: StylesheetsHandle = { stylesheets: [overlayStylesHref] }

/**
 * The OBS overlay: only with the session's key (copied by its creator from the session page); 404 otherwise.
 * The address also says which parts show (options.ts); a part turned off is not read.
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
	const url = new URL(request.url)
	const key = url.searchParams.get('key')
	const options = overlayOptions(url.searchParams)
	const found = await queryAsViewer(context, async (tx) => {
		// No such session (nor an id that is not one) before the key is checked: 404 either way.
		const covered = await readCovered(tx)
		const session = await getSessionById(tx, params.sessionId)
		if (!session || !(await overlayKeyValid(tx, session.id, key))) return null
		const dares = await readSessionDares(tx, session.id)
		const topBoosters = options.top ? await readTopBoosters(tx, session.id) : null
		return { session, dares, covered, topBoosters }
	})
	if (!found) notFound(request)
	const { env } = context.get(servicesContext)
	// Where to join: the empty state names it too, whatever the options.
	const address = joinAddress(env.APP_URL, params.lang, found.session)
	// The QR code is drawn here (uqr, ADR 051): no encoder in the browser, and it shows without JavaScript.
	const join = options.join || options.qr ? { label: options.join ? address.label : null, qr: options.qr ? qrCodePath(address.url) : null } : null
	return { ...found, options, join, address: address.label }
}

export default function OverlayRoute({ loaderData, params }: Route.ComponentProps) {
	const { t } = useTranslation()
	return (
		<>
			<PageTitle title={t('pages.overlay.title')} noindex />
			{/* Without JavaScript the overlay reloads itself. */}
			<noscript>
				<meta httpEquiv="refresh" content="10" />
			</noscript>
			<OverlayPage
				key={loaderData.session.id}
				session={loaderData.session}
				dares={loaderData.dares}
				covered={loaderData.covered}
				lang={params.lang}
				options={loaderData.options}
				topBoosters={loaderData.topBoosters}
				join={loaderData.join}
				address={loaderData.address}
			/>
		</>
	)
}
