// A minimal Python binding of dipcc's Game without torch, for comparing diplo's drop-in
// (diplo.compat.dipcc) with dipcc itself. Written for diplo; it binds the C++ class of
// facebookresearch/diplomacy_cicero's dipcc/cc/game.h, whose sources tools/build_dipcc.sh
// compiles beside it. Only the calls the comparison needs are bound.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "dipcc/cc/encoding.h"
#include "dipcc/cc/game.h"

namespace py = pybind11;

PYBIND11_MODULE(dipcc_core, m) {
  m.doc() = "dipcc's Game (no torch), built by diplo's tools/build_dipcc.sh";
  py::class_<dipcc::Game>(m, "Game")
      .def(py::init<int, bool>(), py::arg("draw_on_stalemate_years") = -1,
           py::arg("is_full_press") = true)
      .def(py::init<const dipcc::Game &>())
      .def("process", &dipcc::Game::process)
      .def("set_orders", &dipcc::Game::set_orders)
      .def("get_orders", &dipcc::Game::py_get_orders)
      .def("get_state", &dipcc::Game::py_get_state)
      .def("get_all_possible_orders", &dipcc::Game::py_get_all_possible_orders)
      .def("get_orderable_locations", &dipcc::Game::py_get_orderable_locations)
      .def("to_json", &dipcc::Game::to_json)
      .def_static("from_json", &dipcc::Game::from_json)
      .def_property_readonly("current_short_phase", &dipcc::Game::get_phase_short)
      .def_property_readonly("is_game_done", &dipcc::Game::is_game_done)
      .def("get_scores", [](dipcc::Game &g) { return g.get_scores(); })
      .def("get_consecutive_years_without_sc_change",
           &dipcc::Game::get_consecutive_years_without_sc_change)
      .def("set_draw_on_stalemate_years", &dipcc::Game::set_draw_on_stalemate_years);
  // dipcc's board-state encoder (encoding.h), for comparing diplo's NumPy one
  m.def("encode_board_state", [](dipcc::Game &game, int input_version) {
    const int width = dipcc::board_state_enc_width(input_version);
    py::array_t<float> out({81, width});
    dipcc::encode_board_state(game.get_state(), input_version, out.mutable_data());
    return out;
  });
}
