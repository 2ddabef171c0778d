/**
 * Claims the marker `name` once in the folder `dir` (created 0700): true for the first caller, on any process of this
 * machine, false for every later one. The marker is an empty file of that name, created exclusively, never through a
 * link. No hash: a hook that claims loads no `node:crypto` (claimOnce, which hashes a free-form key, does).
 * @throws SessionError E_USAGE for a name MARKER_NAME refuses; E_IO when the folder cannot be made or the marker
 *   written for another reason than existing
 */
export declare function claimMarker(dir: string, name: string): boolean;
/** A marker name for `text`: each character MARKER_NAME refuses as `_`, cut to 200 characters. */
export declare function markerName(text: string): string;
