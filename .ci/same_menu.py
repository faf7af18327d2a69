#!/usr/bin/env python3
"""Checks that two screenshots of the main menu show the same picture outside its animated
decorations (the bouncing puyos below, the tiles on both sides): after a tour of the game
screens (`--visit`), nothing of them may be left on the window. Usage: same_menu.py A.png B.png"""
import sys

from check_png import decode

# The menu's still part: between the side tiles and above the row of puyos (1280x800 window).
X0, X1, Y1 = 110, 1170, 680


def main():
    (wa, ha, bpp_a, a), (wb, hb, bpp_b, b) = decode(sys.argv[1]), decode(sys.argv[2])
    if (wa, ha) != (wb, hb):
        sys.exit(f"sizes differ: {wa}x{ha} and {wb}x{hb}")
    differ = total = 0
    for y in range(0, min(Y1, ha), 2):
        for x in range(X0, min(X1, wa), 2):
            pa, pb = a[y][x * bpp_a:x * bpp_a + 3], b[y][x * bpp_b:x * bpp_b + 3]
            total += 1
            differ += max(abs(p - q) for p, q in zip(pa, pb)) > 12
    share = differ / total
    print(f"{sys.argv[1]} vs {sys.argv[2]}: {share:.2%} of the menu's still part differs")
    if share > 0.002:
        sys.exit(f"{sys.argv[1]}: the menu shows something the plain menu does not (left over from a screen?)")


if __name__ == "__main__":
    main()
