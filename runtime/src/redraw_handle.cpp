#include "cadence/redraw_handle.hpp"

#include "runtime_link.hpp"

namespace cadence {

Status RedrawHandle::at(Instant when) const {
  if (!link_) return Error{Errc::closed, "this RedrawHandle refers to no runtime; WindowRuntime::redraw_handle() gives one"};
  return link_->request_redraw(when);
}

Status RedrawHandle::after(Duration delay) const {
  if (!link_) return at(Instant{});
  return link_->request_redraw_after(delay);
}

}  // namespace cadence
