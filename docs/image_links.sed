# Doxygen input filter for the Markdown pages (docs/Doxyfile.in, FILTER_PATTERNS): an image link
# such as ![a figure](../../docs/figures/step02_grid.svg), written relative to the page so that
# GitHub shows it, becomes ![a figure](step02_grid.svg), which Doxygen looks up in IMAGE_PATH and
# copies into the HTML output. Other links are left alone.
s#(!\[[^]]*\]\()([^)]*/)?([^/)]+\.(svg|png))\)#\1\3)#g
