"""Messages of the analysis area (see :mod:`stich.messages`)."""

from stich.messages import define

define({
})
