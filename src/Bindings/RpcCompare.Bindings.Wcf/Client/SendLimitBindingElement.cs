using System.Globalization;
using System.ServiceModel;
using System.ServiceModel.Channels;

namespace RpcCompare.Bindings.Wcf.Client;

/// <summary>
/// Wraps a binding's message encoder so the client refuses a request larger than its own limit
/// before sending it, as the gRPC and pipe clients do. The WCF client limits only what it
/// receives (its framing channels encode with a limit of int.MaxValue), and a NetTcp/UDS server
/// that refuses an over-quota request sends its MaxMessageSizeExceeded fault after reading only
/// the first 64 KiB, while the client is still writing the rest, so the client never reads the
/// fault and reports "the server did not provide a meaningful reply".
/// </summary>
internal sealed class SendLimitBindingElement : MessageEncodingBindingElement
{
    private readonly MessageEncodingBindingElement _inner;
    private readonly int _limit;

    public SendLimitBindingElement(MessageEncodingBindingElement inner, int limit)
    {
        _inner = inner;
        _limit = limit;
    }

    public override MessageVersion MessageVersion
    {
        get => _inner.MessageVersion;
        set => _inner.MessageVersion = value;
    }

    public override MessageEncoderFactory CreateMessageEncoderFactory() => new Factory(_inner.CreateMessageEncoderFactory(), _limit);

    public override BindingElement Clone() => new SendLimitBindingElement((MessageEncodingBindingElement)_inner.Clone(), _limit);

    public override T GetProperty<T>(BindingContext context) => _inner.GetProperty<T>(context);

    public override IChannelFactory<TChannel> BuildChannelFactory<TChannel>(BindingContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        context.BindingParameters.Add(this);
        return context.BuildInnerChannelFactory<TChannel>();
    }

    public override bool CanBuildChannelFactory<TChannel>(BindingContext context) => _inner.CanBuildChannelFactory<TChannel>(context);

    /// <summary>
    /// Wraps the encoding element of <paramref name="binding"/> in one that checks outgoing sizes.
    /// A binding without one (the UDS client's transport encodes binary on its own) gets
    /// <paramref name="defaultEncoding"/> in front of its transport.
    /// </summary>
    public static CustomBinding Apply(CustomBinding binding, int limit, Func<MessageEncodingBindingElement> defaultEncoding)
    {
        ArgumentNullException.ThrowIfNull(binding);
        var elements = binding.Elements;
        if (elements.Find<MessageEncodingBindingElement>() is { } encoding)
        {
            elements[elements.IndexOf(encoding)] = new SendLimitBindingElement(encoding, limit);
        }
        else
        {
            elements.Insert(elements.IndexOf(elements.Find<TransportBindingElement>()), new SendLimitBindingElement(defaultEncoding(), limit));
        }

        return binding;
    }

    private sealed class Factory : MessageEncoderFactory
    {
        private readonly MessageEncoderFactory _inner;
        private readonly int _limit;

        public Factory(MessageEncoderFactory inner, int limit)
        {
            _inner = inner;
            _limit = limit;
            Encoder = new Encoder(inner.Encoder, limit);
        }

        public override MessageEncoder Encoder { get; }

        public override MessageVersion MessageVersion => _inner.MessageVersion;

        // NetTcp and UDS use a session encoder (binary encoding with a per-connection dictionary).
        public override MessageEncoder CreateSessionEncoder() => new Encoder(_inner.CreateSessionEncoder(), _limit);
    }

    private sealed class Encoder : MessageEncoder
    {
        private readonly MessageEncoder _inner;
        private readonly int _limit;

        public Encoder(MessageEncoder inner, int limit)
        {
            _inner = inner;
            _limit = limit;
        }

        public override string ContentType => _inner.ContentType;

        public override string MediaType => _inner.MediaType;

        public override MessageVersion MessageVersion => _inner.MessageVersion;

        public override T GetProperty<T>() => _inner.GetProperty<T>();

        public override bool IsContentTypeSupported(string contentType) => _inner.IsContentTypeSupported(contentType);

        public override Message ReadMessage(Stream stream, int maxSizeOfHeaders, string contentType) => _inner.ReadMessage(stream, maxSizeOfHeaders, contentType);

        public override Message ReadMessage(ArraySegment<byte> buffer, BufferManager bufferManager, string contentType) => _inner.ReadMessage(buffer, bufferManager, contentType);

        public override void WriteMessage(Message message, Stream stream) => _inner.WriteMessage(message, stream);

        public override ArraySegment<byte> WriteMessage(Message message, int maxMessageSize, BufferManager bufferManager, int messageOffset) =>
            Checked(_inner.WriteMessage(message, maxMessageSize, bufferManager, messageOffset), bufferManager);

        public override async ValueTask<ArraySegment<byte>> WriteMessageAsync(Message message, int maxMessageSize, BufferManager bufferManager, int messageOffset) =>
            Checked(await _inner.WriteMessageAsync(message, maxMessageSize, bufferManager, messageOffset).ConfigureAwait(false), bufferManager);

        private ArraySegment<byte> Checked(ArraySegment<byte> encoded, BufferManager bufferManager)
        {
            var size = encoded.Count;
            if (size <= _limit)
            {
                return encoded;
            }

            bufferManager.ReturnBuffer(encoded.Array);
            var refusal = new QuotaExceededException(RefusalMessage(size, _limit));
            SendRefusal.Record(refusal);
            throw refusal;
        }
    }

    /// <summary>Starts the message of every request this element refused; <see cref="WcfErrors"/> recognises it.</summary>
    public const string RefusalPrefix = "The request exceeds the client's limit";

    private static string RefusalMessage(long size, int limit) =>
        string.Create(CultureInfo.InvariantCulture, $"{RefusalPrefix} of {limit:N0} bytes ({size:N0} bytes encoded); it was not sent.");
}
