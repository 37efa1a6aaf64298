"""Messages of the iss area (see :mod:`stich.messages`)."""

from stich.messages import define

define({
})
