/** The spec's `Hogwarts_school`: the four houses a user may pick on their profile, just for fun. */
export const hogwartsHouses = ["gryffindor", "hufflepuff", "ravenclaw", "slytherin"] as const;
export type HogwartsHouse = (typeof hogwartsHouses)[number];
