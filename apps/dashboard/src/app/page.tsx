import { redirect } from 'next/navigation';

// The dashboard's home is the tenant overview; its layout (the signed-in shell) lives under app/(console).
// Next.js requires a page as the module's default export.
export default function HomePage(): never {
  redirect('/overview');
}
