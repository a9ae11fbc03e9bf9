/// A frame on its way through the ``TouchFilter``'s chain: what the assembler made of it,
/// the shared ``ContactTable``, and what the stages deliver.
struct FilterFrame: Sendable {
    /// The assembled frame (for a timer: no touches, the button as it last was).
    let input: Frame
    var now: Timestamp { input.timestamp }
    var table: ContactTable
    /// Touches for the engine in this frame.
    var out: [Touch]
    /// A frame for the engine before this one (held-back lifts that came due, a resting
    /// thumb taken out as a finger lands); nil when none.
    var ahead: Frame?
    /// The button as the frame before left it: the state of frames delivered ahead.
    let buttonBefore: Bool
    /// The frame changed the finger count on a semi-MT pad (``SemiMTStage``): a contact's
    /// step in it is no motion.
    var countChanged = false

    init(input: Frame, buttonBefore: Bool, table: ContactTable, out: [Touch]) {
        self.input = input
        self.buttonBefore = buttonBefore
        self.table = table
        self.out = out
    }

    /// Adds touches to the frame that goes before this one.
    mutating func deliverAhead(_ touches: [Touch], at timestamp: Timestamp) {
        var frame = ahead ?? Frame(timestamp: timestamp, touches: [], isButtonPressed: buttonBefore)
        frame.timestamp = timestamp
        frame.touches = (frame.touches + touches).sorted { $0.id < $1.id }
        ahead = frame
    }
}

/// One touch of a frame on its way through the chain, with its contact's record as the
/// stages change it (written back to the table when the chain is through).
struct ContactStep: Sendable {
    /// How far the touch is through the chain.
    enum State: Sendable, Equatable {
        /// No contact continues it (a touch the filter already let go): the stages only
        /// read what it reports.
        case absent
        /// Its role may still change; the last stage delivers it as its role says.
        case judging
        /// A held-back contact turned finger in this frame: delivered as beginning here.
        case releasing
        /// A finger whose role is decided: only its position is filtered and delivered.
        case delivering
        /// What it delivers is in ``FilterFrame/out`` already (or it delivers nothing).
        case done
        /// Ended: ``ContactStep/lifting`` is its last delivery, held back when
        /// ``ContactStep/holdUntil`` is set.
        case lifting
    }

    /// The touch, its id the delivered one.
    var touch: Touch
    var contact: FilterContact
    var state: State
    /// The contact's role when the frame reached it.
    let roleBefore: ContactRole
    /// No other finger (nor a fake one) is down (moved contacts).
    var alone = false
    /// The fingers down, fakes included, this contact among them while it is one (moved).
    var fingers = 0
    /// Where the sensor jump filter put the touch's previous position before this frame's
    /// step, in a frame that changed a semi-MT pad's finger count.
    var unjumpedPrevious: PhysicalPoint?
    /// It continues a lifted contact (``LiftDebounceStage``).
    var resumed = false
    /// The touches its end delivers, where it lifted, its start, and until when they are
    /// held back (nil: delivered at once).
    var lifting: [Touch] = []
    var liftPosition = PhysicalPoint.zero
    var liftStart = PhysicalPoint.zero
    var liftStartTime = Timestamp.zero
    var holdUntil: Timestamp?

    init(touch: Touch, contact: FilterContact, state: State) {
        self.touch = touch
        self.contact = contact
        self.state = state
        self.roleBefore = contact.role
    }

    /// Ends the step with its last delivery.
    mutating func lift(_ touches: [Touch], at position: PhysicalPoint, start: PhysicalPoint, startTime: Timestamp) {
        lifting = touches
        liftPosition = position
        liftStart = start
        liftStartTime = startTime
        state = .lifting
    }
}
