import { useTranslation } from 'react-i18next'

/** The document title (React 19 hoists <title> into <head>, also during SSR). */
export function PageTitle({ title }: { title: string }) {
	const { t } = useTranslation()
	return <title>{`${title} · ${t('app.name')}`}</title>
}
