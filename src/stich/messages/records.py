"""Messages of the records area (see :mod:`stich.messages`)."""

from stich.messages import define

define({
})
