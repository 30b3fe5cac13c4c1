import { notFound } from 'next/navigation';
import { dashboardSections, findDashboardSection } from '../sections';

export const dynamicParams = false;

export function generateStaticParams(): { section: string }[] {
  return dashboardSections.map((section) => ({ section: section.slug }));
}

// Next.js requires a page as the module's default export.
export default async function SectionPage({ params }: { params: Promise<{ section: string }> }) {
  const section = findDashboardSection((await params).section);
  if (!section) notFound();
  return (
    <>
      <h1>{section.title}</h1>
      <p>{section.summary}</p>
      <p className="placeholder">Not built yet: this screen is a placeholder.</p>
    </>
  );
}
