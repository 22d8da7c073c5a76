// A page whose only script is its Copy buttons (the link for another device: templates/
// rejoin_link.html).
import {wireCopyButtons} from "./copy.js";

wireCopyButtons();
