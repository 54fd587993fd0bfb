using System.Runtime.Serialization;
using System.Xml;
using CoreWCF.Channels;
using Microsoft.Extensions.Logging;
using RpcCompare.Contracts;
using RpcCompare.Contracts.Push;
using RpcCompare.Push;

namespace RpcCompare.Bindings.Wcf.Push;

/// <summary>
/// Sends each publication as a SOAP message built once: the DataContractSerializer runs once per
/// publication into a <see cref="MessageBuffer"/>, and each subscriber's send copies the buffer
/// (the original's advice). The binary encoder still writes each copy to its connection: NetTcp's
/// binary encoding keeps a string dictionary per session, so no two connections' bytes are alike.
/// </summary>
internal sealed class WcfPreSerializedPushService : WcfPushService
{
    // NetTcp and UDS both encode binary SOAP 1.2 with WS-Addressing 1.0.
    private static readonly MessageVersion s_version = MessageVersion.Soap12WSAddressing10;
    private static readonly DataContractSerializer s_serializer = new(typeof(Notification), IPushCallback.NotifyParameter, ServiceNames.Namespace);
    private readonly PublicationFormat<MessageBuffer> _format = new("SOAP message buffer", Buffer);

    public WcfPreSerializedPushService(TopicRegistry registry, ILogger<WcfPreSerializedPushService> logger)
        : base(registry, logger)
    {
    }

    internal override Task SendAsync(IPushCallback callback, Publication publication) =>
        ((IOutputChannel)callback).SendAsync(publication.Encoded(_format).CreateMessage());

    private static MessageBuffer Buffer(Notification notification)
    {
        using var message = Message.CreateMessage(s_version, IPushCallback.NotifyAction, new NotifyBodyWriter(notification));
        return message.CreateBufferedCopy(int.MaxValue);
    }

    /// <summary>The body the typed callback's formatter writes: &lt;Notify&gt;&lt;notification&gt;…&lt;/notification&gt;&lt;/Notify&gt;.</summary>
    private sealed class NotifyBodyWriter : BodyWriter
    {
        private readonly Notification _notification;

        public NotifyBodyWriter(Notification notification)
            : base(isBuffered: false)
        {
            _notification = notification;
        }

        protected override void OnWriteBodyContents(XmlDictionaryWriter writer)
        {
            writer.WriteStartElement(IPushCallback.NotifyOperation, ServiceNames.Namespace);
            s_serializer.WriteObject(writer, _notification);
            writer.WriteEndElement();
        }
    }
}
