using System.ServiceModel;
using System.ServiceModel.Channels;

namespace RpcCompare.Bindings.Wcf.Client;

/// <summary>
/// A channel layer for duplex sessions that faults the channel when the server's end of the session
/// closes under it. The WCF client (System.ServiceModel 10.0) takes a clean end of the input session
/// (the socket read returns 0 bytes after a whole message) as the session's normal end: its receive
/// returns null, the proxy writes its own End record and neither closes nor faults, so nothing tells
/// a push subscriber its server is gone. Over a Unix socket the End record's write then fails
/// (EPIPE) and faults the channel; over TCP, where the socket still accepts writes after the peer's
/// FIN (a killed host, or HAProxy closing for a dead replica), the channel stays Opened forever.
/// Faulting here reaches the proxy's Faulted event, which the push client listens to.
/// </summary>
internal sealed class PeerSessionEndBindingElement : BindingElement
{
    public override BindingElement Clone() => new PeerSessionEndBindingElement();

    public override T GetProperty<T>(BindingContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        return context.GetInnerProperty<T>();
    }

    public override bool CanBuildChannelFactory<TChannel>(BindingContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        return typeof(TChannel) == typeof(IDuplexSessionChannel) && context.CanBuildInnerChannelFactory<TChannel>();
    }

    public override IChannelFactory<TChannel> BuildChannelFactory<TChannel>(BindingContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        if (typeof(TChannel) != typeof(IDuplexSessionChannel))
        {
            throw new ArgumentException($"{nameof(PeerSessionEndBindingElement)} builds duplex session channels only, not {typeof(TChannel).Name}.", nameof(context));
        }

        return (IChannelFactory<TChannel>)(object)new Factory(context.BuildInnerChannelFactory<IDuplexSessionChannel>(), context.Binding);
    }

    /// <summary>Puts the layer on top of <paramref name="binding"/>'s channel stack.</summary>
    public static CustomBinding Apply(CustomBinding binding)
    {
        ArgumentNullException.ThrowIfNull(binding);
        binding.Elements.Insert(0, new PeerSessionEndBindingElement());
        return binding;
    }

    private sealed class Factory(IChannelFactory<IDuplexSessionChannel> inner, IDefaultCommunicationTimeouts timeouts)
        : ChannelFactoryBase<IDuplexSessionChannel>(timeouts)
    {
        public override T GetProperty<T>() => inner.GetProperty<T>() ?? base.GetProperty<T>();

        protected override IDuplexSessionChannel OnCreateChannel(EndpointAddress address, Uri via) => new Channel(this, inner.CreateChannel(address, via));

        protected override void OnOpen(TimeSpan timeout) => inner.Open(timeout);

        protected override IAsyncResult OnBeginOpen(TimeSpan timeout, AsyncCallback callback, object state) => inner.BeginOpen(timeout, callback, state);

        protected override void OnEndOpen(IAsyncResult result) => inner.EndOpen(result);

        protected override void OnClose(TimeSpan timeout)
        {
            base.OnClose(timeout);
            inner.Close(timeout);
        }

        // The base closes this factory's channels asynchronously; the inner factory after them.
        protected override void OnEndClose(IAsyncResult result)
        {
            base.OnEndClose(result);
            inner.Close();
        }

        protected override void OnAbort()
        {
            base.OnAbort();
            inner.Abort();
        }
    }

    /// <summary>The inner channel, forwarded, but for a receive that says the server ended the session.</summary>
    private sealed class Channel : ChannelBase, IDuplexSessionChannel
    {
        private readonly IDuplexSessionChannel _inner;

        public Channel(ChannelManagerBase manager, IDuplexSessionChannel inner)
            : base(manager)
        {
            _inner = inner;
            _inner.Faulted += (_, _) => Fault();
        }

        public IDuplexSession Session => _inner.Session;

        public EndpointAddress LocalAddress => _inner.LocalAddress;

        public EndpointAddress RemoteAddress => _inner.RemoteAddress;

        public Uri Via => _inner.Via;

        public override T GetProperty<T>() => _inner.GetProperty<T>() ?? base.GetProperty<T>();

        public Message Receive() => Ended(_inner.Receive());

        public Message Receive(TimeSpan timeout) => Ended(_inner.Receive(timeout));

        public IAsyncResult BeginReceive(AsyncCallback callback, object state) => _inner.BeginReceive(callback, state);

        public IAsyncResult BeginReceive(TimeSpan timeout, AsyncCallback callback, object state) => _inner.BeginReceive(timeout, callback, state);

        public Message EndReceive(IAsyncResult result) => Ended(_inner.EndReceive(result));

        public bool TryReceive(TimeSpan timeout, out Message message)
        {
            var received = _inner.TryReceive(timeout, out message);
            if (received)
            {
                Ended(message);
            }

            return received;
        }

        public IAsyncResult BeginTryReceive(TimeSpan timeout, AsyncCallback callback, object state) => _inner.BeginTryReceive(timeout, callback, state);

        public bool EndTryReceive(IAsyncResult result, out Message message)
        {
            var received = _inner.EndTryReceive(result, out message);
            if (received)
            {
                Ended(message);
            }

            return received;
        }

        public bool WaitForMessage(TimeSpan timeout) => _inner.WaitForMessage(timeout);

        public IAsyncResult BeginWaitForMessage(TimeSpan timeout, AsyncCallback callback, object state) => _inner.BeginWaitForMessage(timeout, callback, state);

        public bool EndWaitForMessage(IAsyncResult result) => _inner.EndWaitForMessage(result);

        public void Send(Message message) => _inner.Send(message);

        public void Send(Message message, TimeSpan timeout) => _inner.Send(message, timeout);

        public IAsyncResult BeginSend(Message message, AsyncCallback callback, object state) => _inner.BeginSend(message, callback, state);

        public IAsyncResult BeginSend(Message message, TimeSpan timeout, AsyncCallback callback, object state) => _inner.BeginSend(message, timeout, callback, state);

        public void EndSend(IAsyncResult result) => _inner.EndSend(result);

        protected override void OnOpen(TimeSpan timeout) => _inner.Open(timeout);

        protected override IAsyncResult OnBeginOpen(TimeSpan timeout, AsyncCallback callback, object state) => _inner.BeginOpen(timeout, callback, state);

        protected override void OnEndOpen(IAsyncResult result) => _inner.EndOpen(result);

        protected override void OnClose(TimeSpan timeout) => _inner.Close(timeout);

        protected override IAsyncResult OnBeginClose(TimeSpan timeout, AsyncCallback callback, object state) => _inner.BeginClose(timeout, callback, state);

        protected override void OnEndClose(IAsyncResult result) => _inner.EndClose(result);

        protected override void OnAbort() => _inner.Abort();

        protected override void OnFaulted()
        {
            base.OnFaulted();
            _inner.Abort(); // Keeps the dead connection out of the client's connection pool.
        }

        /// <summary>
        /// A null message is the end of the server's session. While this side is still Opened (not
        /// closing it itself), that end came from the server or the network: fault.
        /// </summary>
        private Message Ended(Message message)
        {
            if (message is null && State == CommunicationState.Opened)
            {
                Fault();
            }

            return message!;
        }
    }
}
