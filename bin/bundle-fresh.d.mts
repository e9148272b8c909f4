/** Whether `bundle` exists and is newer than every source file below `root` (REPLSIM_NO_BUNDLE=1: never). */
export function bundleIsFresh(bundle: string, root: string): boolean;
