import { useEffect } from 'react'
import { useTranslation } from '#app/i18n/translation'
import { toast } from '#app/components/toast'
import { BUILD_MANIFEST_PATH, CURRENT_BUILD_ID, isBuildManifest } from './manifest'

/**
 * While the tab is visible, asks every `intervalSeconds` whether a newer
 * build is out (docs/product.md §15.4) and, once one is, offers a reload in a
 * toast that stays until it is used or dismissed. A hidden tab does not poll;
 * coming back after the interval checks at once. Renders nothing.
 */
export function NewBuildOffer({ intervalSeconds }: { intervalSeconds: number }) {
	const { t } = useTranslation()
	useEffect(() => {
		if (!intervalSeconds || CURRENT_BUILD_ID === 'dev') return
		const interval = intervalSeconds * 1000
		let timer: ReturnType<typeof setTimeout> | undefined
		let lastCheck = Date.now()
		let offered = false
		let stopped = false

		async function check() {
			lastCheck = Date.now()
			try {
				const response = await fetch(BUILD_MANIFEST_PATH, { cache: 'no-store', headers: { accept: 'application/json' } })
				if (!response.ok) return
				const manifest: unknown = await response.json()
				if (stopped || offered || !isBuildManifest(manifest) || manifest.id === CURRENT_BUILD_ID) return
				offered = true
				toast.info(t('builds.new-version'), {
					id: 'new-build',
					description: t('builds.new-version-description'),
					duration: Number.POSITIVE_INFINITY,
					action: { label: t('builds.reload'), onClick: () => window.location.reload() },
				})
			} catch {
				// Offline or mid-deploy: ask again next time.
			}
		}
		function schedule(delay: number) {
			clearTimeout(timer)
			if (stopped || offered || document.visibilityState !== 'visible') return
			timer = setTimeout(() => void check().then(() => schedule(interval)), Math.max(0, delay))
		}
		function onVisibilityChange() {
			if (document.visibilityState === 'visible') schedule(interval - (Date.now() - lastCheck))
			else clearTimeout(timer)
		}
		schedule(interval)
		document.addEventListener('visibilitychange', onVisibilityChange)
		return () => {
			stopped = true
			clearTimeout(timer)
			document.removeEventListener('visibilitychange', onVisibilityChange)
		}
	}, [intervalSeconds, t])
	return null
}
