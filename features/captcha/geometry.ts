/** The slider puzzle's fixed sizes, in image pixels (shared by the server and the browser). */
export const puzzleGeometry = {
  width: 300,
  height: 150,
  pieceSize: 50,
  /** How far from the hole a dropped piece may land and still count. */
  tolerance: 5,
} as const;

/** The farthest the piece can be dragged. */
export const maxPieceX = puzzleGeometry.width - puzzleGeometry.pieceSize;
